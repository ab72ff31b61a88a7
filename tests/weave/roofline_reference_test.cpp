// The reference GPU beside a roofline woven for another GPU (roofline_reference.h): which kernels
// are a figure's last rungs; the reference's roofs and last rungs in roofline-inputs.json, the
// caption naming both GPUs and the alt text the reference's roofs; woven for the reference itself,
// the figure as before, with no second set.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"
#include "roofline_reference.h"

namespace weave {
namespace {

using testing::FixtureBook;

using testing::contains;

std::vector<std::string> names(const std::vector<KernelResult>& kernels) {
  std::vector<std::string> out;
  for (const KernelResult& k : kernels) out.push_back(k.name);
  return out;
}

std::vector<KernelResult> kernels(const std::vector<std::string>& keys) {
  std::vector<KernelResult> out;
  for (const std::string& key : keys) out.push_back(KernelResult{key});
  return out;
}

TEST(LastRungs, TheHighestRungOfEachLadderAtEachSizeAndNoPeer) {
  auto last = last_rungs(kernels(
      {"reduce/v1_naive@268435456", "reduce/v7_last_block@268435456",
       "reduce/peer_cub_sum@268435456", "reduce/v7_last_block@1073741824",  // two sizes: both
       "fusion/short_v1_unfused@32768x4096", "fusion/short_v4_fused_float4@32768x4096",
       "fusion/long_v3_fused_float4@32768x4096", "fusion/long_v1_unfused@32768x4096",
       "hopper/v1b_one_in_flight@4096", "hopper/v7_multicast_raster@4096",  // v1b: a rung, not last
       "reuse/register_reuse@536870912x1", "reuse/register_reuse@536870912x256",  // a sweep: last
       "matmul/v10_cp_async@4096", "matmul/v9_autotuned@4096",  // 10 > 9, whatever the order
       "matmul/bf16_mma@4096"}));                               // no rung: its own ladder
  EXPECT_EQ(names(last),
            (std::vector<std::string>{
                "reduce/v7_last_block@268435456", "reduce/v7_last_block@1073741824",
                "fusion/short_v4_fused_float4@32768x4096", "fusion/long_v3_fused_float4@32768x4096",
                "hopper/v7_multicast_raster@4096", "reuse/register_reuse@536870912x256",
                "matmul/v10_cp_async@4096", "matmul/bf16_mma@4096"}));
  EXPECT_TRUE(last_rungs(kernels({"attention/peer_torch_flash@1x2"})).empty());
}

const std::string kFolder = "book/measurements/";

// The fixture's GPU (testgpu, "Test GPU": copy 4 TB/s, FP32 60 TFLOP/s) copied as "Other GPU",
// with copy_bandwidth 3 TB/s and v2_fast at 500 µs.
void other_gpu(const FixtureBook& book) {
  for (const char* file : {"machine.json", "1.json"}) {
    nlohmann::json j = nlohmann::json::parse(book.read(kFolder + "testgpu/" + file));
    j["gpu"] = "Other GPU";
    j["context"]["gpu"] = "Other GPU";
    if (std::string(file) == "machine.json")
      j["ceilings"]["copy_bandwidth"].update(
          {{"median", 3.0e12}, {"min", 2.9e12}, {"max", 3.1e12}});
    if (std::string(file) == "1.json")
      j["results"]["alpha/v2_fast@1048576"]["time"].update(
          {{"median", 5.0e-4}, {"min", 4.9e-4}, {"max", 5.1e-4}});
    book.write(kFolder + "othergpu/" + file, j.dump(2));
  }
}

auto woven_for(const std::string& gpu) {
  return [=](Options& o) {
    o.gpu = gpu;
    o.reference = "testgpu";
  };
}

TEST(RooflineReference, AnotherGpusRooflineHasTheReferencesRoofsAndLastRungs) {
  FixtureBook book;
  other_gpu(book);
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  auto out = book.outputs();
  auto inputs = nlohmann::json::parse(out["roofline-inputs.json"]);
  EXPECT_EQ(inputs["gpu"], "Other GPU");
  EXPECT_EQ(inputs["ceilings"]["copy_bandwidth"]["value"], 3.0e12);
  EXPECT_EQ(inputs["reference"]["gpu"], "Test GPU");
  EXPECT_EQ(inputs["reference"]["gpu_slug"], "testgpu");
  EXPECT_EQ(inputs["reference"]["ceilings"]["copy_bandwidth"]["value"], 4.0e12);
  // Chapter 1's last rung, placed on the reference's record, numbered as this GPU's marker.
  const auto& theirs = inputs["chapters"][0]["reference_points"];
  ASSERT_EQ(theirs.size(), 1u) << theirs.dump();
  EXPECT_EQ(theirs[0]["name"], "alpha/v2_fast@1048576");
  EXPECT_EQ(theirs[0]["number"], 2);
  EXPECT_DOUBLE_EQ(theirs[0]["flop_rate"].get<double>(), 1048576 / 4e-4);
  EXPECT_DOUBLE_EQ(inputs["chapters"][0]["points"][1]["flop_rate"].get<double>(), 1048576 / 5e-4);
  EXPECT_EQ(inputs["book_reference_points"].size(), 1u);
  // The caption names both GPUs; the alt text the reference's roofs and where its rung sits.
  const std::string& alpha = out["1-alpha.md"];
  EXPECT_TRUE(
      contains(alpha,
               "![The alpha ladder. Hollow markers: placed by the chapter's model bytes (no "
               "DRAM count recorded). Solid: this GPU, Other GPU; faint and dashed: the "
               "reference GPU, Test GPU, its measured roofs and the last rung of each "
               "ladder (◇, joined to this GPU's marker of the same kernel).]"
               "(figures/roofline-1.svg)"))
      << alpha;
  EXPECT_TRUE(contains(
      alpha,
      "Roofs drawn: B_dram 4.92 TB/s (theoretical), B_copy 3.00 TB/s."));  // this GPU's, as before
  EXPECT_TRUE(contains(alpha,
                       "Drawn for Other GPU. Beside it, faint and dashed, the reference GPU Test "
                       "GPU's measured roofs: B_copy 4.00 TB/s; and its last rungs as hollow "
                       "diamonds: 2 v2_fast at 0.250 FLOP/B and 2.62 GFLOP/s, 0.26% of "
                       "B_copy.\"}"))
      << alpha;
  // The book's figure too.
  EXPECT_TRUE(contains(out["2-beta.md"],
                       "Solid: this GPU, Other GPU; faint and dashed: the "
                       "reference GPU, Test GPU"));
}

TEST(RooflineReference, TheLevelsFigureHasTheReferencesRoofsAlone) {
  FixtureBook book;
  book.replace(
      kFolder + "testgpu/1.json",
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"})",
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"},
                    "dram_bytes": {"median": 2097152, "min": 2097152, "max": 2097152, "n": 1, "unit": "B"},
                    "l2_bytes": {"median": 8388608, "min": 8388608, "max": 8388608, "n": 1, "unit": "B"})");
  other_gpu(book);  // counted on both
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  const std::string alpha = book.outputs()["1-alpha.md"];
  size_t levels = alpha.find("](figures/roofline-1-levels.svg)");
  ASSERT_NE(levels, std::string::npos) << alpha;
  size_t caption = alpha.rfind("![", levels);
  EXPECT_TRUE(contains(alpha.substr(caption, levels - caption),
                       " Solid: this GPU, Other GPU; faint and dashed: the reference GPU, Test "
                       "GPU, its measured roofs."));
  EXPECT_TRUE(contains(alpha.substr(levels),
                       "Drawn for Other GPU. Beside it, faint and dashed, the reference GPU Test "
                       "GPU's measured roofs: B_copy 4.00 TB/s.\"}"));
}

TEST(RooflineReference, WovenForTheReferenceTheFigureIsAsBefore) {
  FixtureBook book;
  ASSERT_EQ(book.weave_with(woven_for("")).status, 0);
  auto alone = book.outputs();
  other_gpu(book);
  auto run = book.weave_with(woven_for("testgpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  auto out = book.outputs();
  for (const char* page : {"1-alpha.md", "2-beta.md", "roofline-inputs.json"})
    EXPECT_EQ(out[page], alone[page]) << page;
  auto inputs = nlohmann::json::parse(out["roofline-inputs.json"]);
  EXPECT_FALSE(inputs.contains("reference"));
  EXPECT_FALSE(inputs["chapters"][0].contains("reference_points"));
  EXPECT_FALSE(contains(out["1-alpha.md"], "faint"));
}

TEST(RooflineReference, AStaleReferenceRecordIsSaidInTheCaption) {
  FixtureBook book;
  other_gpu(book);
  nlohmann::json j = nlohmann::json::parse(book.read(kFolder + "testgpu/1.json"));
  j["sources_sha256"] = std::string(64, '0');
  book.write(kFolder + "testgpu/1.json", j.dump(2));
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"],
                       "of each ladder (◇, joined to this GPU's marker of the same kernel); its "
                       "record of chapter 1 is stale, measured on 2026-11-29 with older code."));
}

}  // namespace
}  // namespace weave
