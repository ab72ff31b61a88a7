// Several GPUs' folders of records: the reference GPU woven by default, --gpu still choosing,
// another GPU's box and claims beside the reference's, the GPUs page, and results that a GPU
// skipped or failed (book/CONVENTIONS.md, "Skipped and failed results").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"

namespace weave {
namespace {

using testing::copy_gpu;
using testing::FixtureBook;

using testing::contains;

const std::string kFolder = "book/measurements/";

// testgpu (the fixture's, the reference here), othergpu (v2_fast slower: the first claim breaks),
// thirdgpu (v1_naive skipped, v2_fast failed, two tests failed).
void three_gpus(const FixtureBook& book) {
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v2_fast@1048576"]["time"] = {
        {"median", 6.0e-4}, {"min", 5.9e-4}, {"max", 6.1e-4}, {"n", 10}, {"unit", "s"}};
  });
  copy_gpu(book, "thirdgpu", "Third GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v1_naive@1048576"] = {{"status", "skipped"},
                                              {"reason", "needs 26.0 GiB, 23.6 GiB free"}};
    j["results"]["alpha/v2_fast@1048576"] = {{"status", "failed"},
                                             {"reason", "CUDA error: out of memory"}};
    j["tests"]["failed"] = 2;
  });
}

auto woven_for(const std::string& gpu, const std::string& reference = "testgpu") {
  return [=](Options& o) {
    o.gpu = gpu;
    o.reference = reference;
  };
}

TEST(Gpus, ASingleGpuTreeIsUnchangedByAReference) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto before = book.outputs();
  auto run = book.weave_with(woven_for(""));
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_EQ(book.outputs(), before);  // no gpus.md, and every file byte for byte the same
  EXPECT_FALSE(before.count("gpus.md"));
}

TEST(Gpus, TwoFoldersWeaveTheReferenceAsBefore) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto before = book.outputs();
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json&) {});
  auto run = book.weave_with(woven_for(""));
  ASSERT_EQ(run.status, 0) << run.printed;  // several folders: not an error with a reference
  auto after = book.outputs();
  for (const char* name : {"1-alpha.md", "2-beta.md", "B-symbols.md", "claims.json"})
    EXPECT_EQ(after[name], before[name]) << name;
  ASSERT_TRUE(after.count("gpus.md"));
  book.remove(kFolder + "othergpu/machine.json");  // one GPU again: its page goes
  book.remove(kFolder + "othergpu/1.json");
  ASSERT_EQ(book.weave_with(woven_for("")).status, 0);
  EXPECT_EQ(book.outputs(), before);
  auto chapters = nlohmann::json::parse(after["book.json"])["chapters"];
  EXPECT_EQ(chapters.back()["id"], "GPUs");
  EXPECT_EQ(chapters.back()["basename"], "gpus");
  EXPECT_EQ(nlohmann::json::parse(after["book.json"])["gpu_slug"], "testgpu");
}

TEST(Gpus, SeveralFoldersWithoutAReferenceStillNeedGpu) {
  FixtureBook book;
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json&) {});
  auto run = book.weave_with(woven_for("", "nosuchgpu"));
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.printed, "none is the reference GPU 'nosuchgpu'")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "--gpu SLUG")) << run.printed;
  // --gpu still works, with or without a reference
  auto chosen = book.weave_with(woven_for("othergpu", ""));
  ASSERT_EQ(chosen.status, 0) << chosen.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "**This generation:** Other GPU")) << alpha;
  EXPECT_FALSE(contains(alpha, ".beside"));  // no reference named: nothing beside it
}

TEST(Gpus, AnotherGpusBoxStandsBesideTheReference) {
  FixtureBook book;
  three_gpus(book);
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  for (const char* part :
       {"::: {.hwbox .beside}", "**This generation:** Other GPU, measured [2026-11-29]",
        "**Beside it, the reference GPU:** Test GPU, measured [2026-11-29]",
        "| symbol | meaning | Other GPU (yours), 2026-11-29 | Test GPU (reference), 2026-11-29 |",
        "| result | measured on | time | bandwidth | FLOP rate |",
        "| `alpha/v2_fast@1048576` | yours | [600 µs]", "|  | reference | [400 µs]",
        "Yours: CUDA runtime 13.0", "The reference: CUDA runtime 13.0"})
    EXPECT_TRUE(contains(alpha, part)) << part << "\n" << alpha;
}

TEST(Gpus, EachClaimSaysWhereItStandsOnBoth) {
  FixtureBook book;
  three_gpus(book);
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  std::string alpha = book.outputs()["1-alpha.md"];
  // 0.6 ms is not below half of 1 ms here; 0.4 ms is on the reference
  EXPECT_TRUE(contains(alpha,
                       "<summary>**On this GPU (Other GPU) the comparison does not hold:** "
                       "`alpha/v2_fast@1048576 : time` = 600 µs, not < `0.5 * "
                       "alpha/v1_naive@1048576 : time` = 500 µs. The sentence is a finding about "
                       "the reference GPU, Test GPU, where it holds: 400 µs < 500 µs.</summary>\n\n"
                       "- `alpha/v2_fast@1048576 : time` = 600 µs not < `0.5 * "
                       "alpha/v1_naive@1048576 : time` = 500 µs\n\n"
                       "On the reference GPU, Test GPU: held.\n\n"
                       "- `alpha/v2_fast@1048576 : time` = 400 µs < `0.5 * alpha/v1_naive@1048576 "
                       ": time` = 500 µs\n"))
      << alpha;
  EXPECT_TRUE(contains(alpha, "On the reference GPU, Test GPU: broken too."));
  auto claims = nlohmann::json::parse(book.outputs()["claims.json"])["claims"];
  EXPECT_EQ(claims[0]["status"], "broken");
  EXPECT_EQ(claims[0]["reference_status"], "holds");
}

TEST(Gpus, SkippedAndFailedResultsSayWhyBesideTheReference) {
  FixtureBook book;
  three_gpus(book);
  auto run = book.weave_with(woven_for("thirdgpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  for (const char* part :
       {"[skipped on this GPU: needs 26.0 GiB, 23.6 GiB free]{.unmeasured .not-run",
        "(Test GPU: [1.00 ms]{.measured", "[failed on this GPU: CUDA error: out of memory]",
        "::: {.claim .claim-unmeasured .claim-not-checked",
        "<summary>Not checked on yours, Third GPU: failed on this GPU: CUDA error: out of memory. "
        "On the reference GPU, Test GPU: held.</summary>\n\nOn the reference GPU, Test GPU: "
        "held.\n\n- ",
        "**2 GPU test(s) failed** in the run that measured these numbers"})
    EXPECT_TRUE(contains(alpha, part)) << part << "\n" << alpha;
  EXPECT_TRUE(contains(run.printed, "rest on results skipped or failed on this GPU"));
  auto claims = nlohmann::json::parse(book.outputs()["claims.json"]);
  EXPECT_EQ(claims["claims"][0]["status"], "not checked on this GPU");
  EXPECT_EQ(claims["summary"]["not checked on this GPU"], 2);
}

TEST(Gpus, CountersAnotherGpuDidNotRecordAreNotCountedThere) {
  // The reference's record has a counter (and a profiler entry); another GPU measured without
  // ncu (no permission to count, or --no-counters) has the timings only.
  FixtureBook book;
  const std::string reference = kFolder + "testgpu/1.json";
  nlohmann::json j = nlohmann::json::parse(book.read(reference));
  j["profiler"] = {{"tool", "ncu"}, {"version", "2025.3.1.0"}};
  j["results"]["alpha/v1_naive@1048576"]["dram_bytes"] = {
      {"median", 4718592}, {"min", 4718592}, {"max", 4718592}, {"n", 1}, {"unit", "B"}};
  book.write(reference, j.dump(2));
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& record) {
    record.erase("profiler");
    record["results"]["alpha/v1_naive@1048576"].erase("dram_bytes");
  });
  book.replace("chapters/1-alpha.md", "An opening paragraph before the box.",
               "Counted: [alpha/v1_naive@2^20 : dram_bytes]{.m}.");
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha,
                       "[not counted on this GPU: book/measurements/othergpu/1.json was "
                       "measured without hardware counters (no ncu, or --no-counters)]"))
      << alpha;
  EXPECT_TRUE(contains(alpha, "(Test GPU: [4.5 MiB]{.measured")) << alpha;
  // On the reference itself a counter its record lacks is still the author's error.
  j["results"]["alpha/v1_naive@1048576"].erase("dram_bytes");
  book.write(reference, j.dump(2));
  EXPECT_EQ(book.weave_with(woven_for("")).status, 2);
}

TEST(Gpus, ACeilingAnotherGpuSkippedSaysWhy) {
  // machine.json of a GPU that lacks an instruction (wgmma off Hopper): the ceiling is kept as
  // {"status", "reason"}, and what is priced against it says why, beside the reference's value.
  FixtureBook book;
  const std::string reference = kFolder + "testgpu/machine.json";
  nlohmann::json r = nlohmann::json::parse(book.read(reference));
  r["ceilings"]["wgmma_rate"] = {
      {"median", 9.5e14}, {"min", 9.4e14}, {"max", 9.6e14}, {"n", 10}, {"unit", "FLOP/s"}};
  book.write(reference, r.dump(2));
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json&) {});
  const std::string machine = kFolder + "othergpu/machine.json";
  nlohmann::json j = nlohmann::json::parse(book.read(machine));
  j["ceilings"]["wgmma_rate"] = {
      {"status", "skipped"}, {"reason", "bench/wgmma_rate@2048: needs sm_90a, this GPU is 8.9"}};
  book.write(machine, j.dump(2));
  book.replace("chapters/1-alpha.md", "An opening paragraph before the box.",
               "The dense rate: [machine : wgmma_rate]{.m}.");
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha,
                       "[skipped on this GPU: bench/wgmma_rate@2048: needs sm_90a, this GPU "
                       "is 8.9]{.unmeasured .not-run"))
      << alpha;
  j["ceilings"]["wgmma_rate"] = {{"status", "lost"}, {"reason", ""}};  // not what measure.py writes
  book.write(machine, j.dump(2));
  EXPECT_EQ(book.weave_with(woven_for("othergpu")).status, 2);
}

// tools.md WV04/RD09 (issue 35 goal 4): a skipped or failed result's reason is a benchmark's
// stderr, and a context string is whatever the record holds: both are text wherever they are
// woven. An <img onerror> stays inert (no '<' reaches the Markdown) and a newline opens no claim,
// heading or table row.
TEST(Gpus, ARecordsReasonsAndContextAreText) {
  const std::string hostile =
      "crashed: <img src=x onerror=alert(document.domain)>\n\n::: {.claim expr=\"1 < 2\"}\n# "
      "injected heading\n| a | b |\n[link](javascript:x) `code` *em* $x$ @cite ^sup^ ~sub~ "
      "\x1b[31m";
  FixtureBook book;
  three_gpus(book);
  copy_gpu(book, "thirdgpu", "Third GPU", [&](nlohmann::json& j) {
    j["results"]["alpha/v1_naive@1048576"] = {{"status", "skipped"}, {"reason", hostile}};
    j["results"]["alpha/v2_fast@1048576"] = {{"status", "failed"}, {"reason", hostile}};
    j["context"]["sm_clock_start_mhz"] = hostile;
  });
  const std::string reference = kFolder + "testgpu/machine.json";  // a ceiling thirdgpu lacks
  nlohmann::json r = nlohmann::json::parse(book.read(reference));
  r["ceilings"]["wgmma_rate"] = {
      {"median", 9.5e14}, {"min", 9.4e14}, {"max", 9.6e14}, {"n", 10}, {"unit", "FLOP/s"}};
  book.write(reference, r.dump(2));
  const std::string machine = kFolder + "thirdgpu/machine.json";
  nlohmann::json m = nlohmann::json::parse(book.read(machine));
  m["ceilings"]["wgmma_rate"] = {{"status", "skipped"}, {"reason", hostile}};
  book.write(machine, m.dump(2));
  book.replace("chapters/1-alpha.md", "An opening paragraph before the box.",
               "The dense rate: [machine : wgmma_rate]{.m}.");
  for (const std::string gpu : {"thirdgpu", ""}) {  // its own book, and the GPUs page beside
    auto run = book.weave_with(woven_for(gpu));
    ASSERT_EQ(run.status, 0) << run.printed;
    for (const auto& [name, text] : book.outputs()) {
      if (!name.ends_with(".md")) continue;
      EXPECT_FALSE(contains(text, "<img")) << gpu << " " << name << "\n" << text;
      EXPECT_FALSE(contains(text, "\x1b")) << name;
      for (const char* line : {"\n# injected", "\n::: {.claim expr=\"1", "\n| a | b |"})
        EXPECT_FALSE(contains(text, line)) << gpu << " " << name << "\n" << text;
      EXPECT_FALSE(contains(text, "[link](")) << name;
    }
    if (gpu == "thirdgpu") {
      const std::string alpha = book.outputs()["1-alpha.md"];
      EXPECT_TRUE(contains(alpha,
                           "[skipped on this GPU: crashed: &#60;img src=x "
                           "onerror=alert(document.domain)&#62; ::: &#123;.claim expr=&#34;1 "
                           "&#60; 2&#34;&#125; # injected heading &#124; a &#124; b &#124; "
                           "&#91;link&#93;(javascript:x) &#96;code&#96; &#42;em&#42; "
                           "&#36;x&#36; &#64;cite &#94;sup&#94; &#126;sub&#126; &#91;31m]"))
          << alpha;
    }
  }
}

// tools.md WV13: a copy of a GPU's folder named "NVIDIA H200", or a link alias, was a second GPU on
// the GPUs page. Neither is a GPU's folder: left out, with a warning naming it (no ESC printed).
TEST(Gpus, FoldersThatAreNoSlugOrALinkAreNoGpus) {
  FixtureBook book;
  ASSERT_EQ(book.weave_with(woven_for("")).status, 0);
  auto before = book.outputs();
  copy_gpu(book, "Test GPU", "Test GPU", [](nlohmann::json&) {});
  copy_gpu(book, "esc\x1b[31m", "Test GPU", [](nlohmann::json&) {});
  std::filesystem::create_directory_symlink(book.root() / "book/measurements/testgpu",
                                            book.root() / "book/measurements/testgpu-copy");
  auto run = book.weave_with(woven_for(""));
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_EQ(book.outputs(), before);  // one GPU: no GPUs page
  for (const char* name : {"Test GPU", "testgpu-copy", "esc &#91;31m"})
    EXPECT_TRUE(contains(run.printed, kFolder + name + ": warning: holds records but is no GPU's"))
        << name << "\n"
        << run.printed;
  EXPECT_FALSE(contains(run.printed, "\x1b"));
}

TEST(Gpus, StrictFailsOnSkippedResultsOnlyOnTheReference) {
  FixtureBook book;
  three_gpus(book);
  auto skipped_errors = [](const FixtureBook::Run& run) {
    int n = 0;
    for (const auto& e : run.diagnostics.errors()) n += contains(e.message, "skipped or failed");
    return n;
  };
  auto other = book.weave_with([](Options& o) {
    woven_for("thirdgpu")(o);
    o.strict = true;
  });
  EXPECT_EQ(skipped_errors(other), 0) << other.printed;  // a reader's GPU: a warning
  auto reference = book.weave_with([](Options& o) {
    woven_for("thirdgpu", "thirdgpu")(o);
    o.strict = true;
  });
  EXPECT_EQ(reference.status, 2);
  EXPECT_EQ(skipped_errors(reference), 1) << reference.printed;  // the book's own numbers
}

TEST(Gpus, ThePageSetsEveryGpuSideBySide) {
  FixtureBook book;
  three_gpus(book);
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  std::string page = book.outputs()["gpus.md"];
  for (const char* part :
       {"id: \"GPUs\"", "title: \"side by side\"", "# side by side", "woven for **othergpu**",
        // the GPUs as columns, their properties as rows
        "| | Test GPU (reference) | Other GPU (this book) | Third GPU |",
        "| folder | `testgpu` | `othergpu` | `thirdgpu` |", "| measured | 2026-11-29 |",
        "| SM clock, start / end | — |", "| SMs | 132 |", "| copy bandwidth | 4.00 TB/s |",
        "| *measured; SM clock, start / end* | 2026-11-29; 1980 / 1965 MHz (max 1980) |",
        "### 1 Alpha\n\n[Chapter 1](1-alpha.html)'s kernels",
        "| result | Test GPU | Other GPU | Third GPU |",
        "| `alpha/v2_fast@1048576` | 400 µs | 600 µs, 0.667× ref | *failed on this GPU: CUDA "
        "error: out of memory* |",
        "*skipped on this GPU: needs 26.0 GiB, 23.6 GiB free*"})
    EXPECT_TRUE(contains(page, part)) << part << "\n" << page;
  EXPECT_FALSE(contains(page, "### 2 Beta"));  // measured on no GPU: no table
}

TEST(Gpus, AFaultyOtherFolderIsLeftOutWithAWarning) {
  FixtureBook book;
  three_gpus(book);
  book.write(kFolder + "thirdgpu/1.json", "{ not json");
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_TRUE(contains(run.printed, "book/measurements/thirdgpu: warning:")) << run.printed;
  EXPECT_FALSE(contains(book.outputs()["gpus.md"], "Third GPU"));
}

TEST(Gpus, ABadStatusIsAnErrorNamingTheRecord) {
  FixtureBook book;
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v1_naive@1048576"] = {{"status", "maybe"}};
  });
  auto run = book.weave_with(woven_for("othergpu"));
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.printed,
                       "book/measurements/othergpu/1.json: error: result "
                       "'alpha/v1_naive@1048576': a result without numbers is"))
      << run.printed;
}

TEST(Gpus, RecordsBesideGpuFoldersAreAnError) {
  FixtureBook book;
  book.write(kFolder + "1.json", book.read(kFolder + "testgpu/1.json"));
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.printed, "holds records of its own beside the GPU folders (testgpu"))
      << run.printed;
}

TEST(Gpus, ARecordOfAnotherGpuIsAnError) {
  FixtureBook book;
  book.replace(kFolder + "testgpu/1.json", "\"gpu\": \"Test GPU\"", "\"gpu\": \"NVIDIA A100\"");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.printed, "testgpu/1.json: error: was measured on NVIDIA A100, but"))
      << run.printed;
}

}  // namespace
}  // namespace weave
