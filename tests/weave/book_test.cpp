// The whole fixture book woven: the chapters, the box, the claims, the symbols table, the reports
// and the roofline inputs; stale records; strict builds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"

namespace weave {
namespace {

using testing::FixtureBook;

using testing::contains;

TEST(Book, WeavesTheFixtureBook) {
  FixtureBook book;
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  auto out = book.outputs();
  for (const char* name : {"1-alpha.md", "2-beta.md", "B-symbols.md", "book.json", "claims.json",
                           "claims.md", "symbols.json", "roofline-inputs.json"})
    EXPECT_TRUE(out.count(name)) << name;
  const std::string& alpha = out["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "id: \"1\""));  // the front matter goes on to Pandoc
  EXPECT_TRUE(contains(alpha, "[0.105%]{.measured"));
  EXPECT_TRUE(contains(alpha, "[2.5×]{.measured"));
  EXPECT_TRUE(contains(alpha, "faster, at [400 µs]{.measured"));  // a span wrapped over three lines
  EXPECT_TRUE(contains(alpha, "[1.98 GHz]{.measured"));       // recorded in MHz, read into Hz once
  EXPECT_TRUE(contains(alpha, "`[alpha/v9@1 : time]{.m}`"));  // inline code untouched
  EXPECT_TRUE(contains(alpha, "// [alpha/v9@1 : time]{.m} inside a code block"));
  // No counts in the fixture's record: the caption says the points stand on the model's bytes.
  EXPECT_TRUE(
      contains(alpha,
               "![The alpha ladder. Hollow markers: placed by the chapter's model bytes "
               "(no DRAM count recorded).](figures/roofline-1.svg){alt=\"Log-log roofline"));
  EXPECT_TRUE(contains(run.printed, "chapters/1-alpha.md:28: warning: claim is broken"));
  EXPECT_TRUE(contains(run.printed, "chapters/2-beta.md:12: warning:"));
}

TEST(Book, TheBoxStandsWhereAsked) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  std::string alpha = book.outputs()["1-alpha.md"];
  size_t box = alpha.find("::: {.hwbox}");
  ASSERT_NE(box, std::string::npos);
  EXPECT_LT(alpha.find("An opening paragraph"), box);
  for (const char* part : {"Test GPU, measured [2026-11-29]", "recorded earlier",
                           "| $B_\\text{copy}$ | copy bandwidth | [4.00 TB/s]", "[60 MiB]",
                           "[1.98 GHz]", "| `alpha/v2_fast@1048576` | [400 µs]", "[2.62 GFLOP/s]",
                           "CUDA runtime 13.0 · driver 580.159.04 · nvcc 13.0.88",
                           "SM clock 1980 MHz at the start, 1965 MHz at the end (max 1980 MHz)"})
    EXPECT_TRUE(contains(alpha, part)) << part;
  // Without ::: box :::, the box follows the first heading.
  std::string beta = book.outputs()["2-beta.md"];
  EXPECT_LT(beta.find("# Beta"), beta.find("::: {.hwbox}"));
  EXPECT_LT(beta.find("::: {.hwbox}"), beta.find("Beta has not been measured"));
  // An appendix with no symbols and no kernels still says which GPU and date its values come from.
  std::string appendix = book.outputs()["B-symbols.md"];
  EXPECT_TRUE(contains(appendix,
                       "::: {.hwbox}\n**This generation:** Test GPU, measured "
                       "[2026-11-29]{title=\"2026-11-29T14:50:00Z\"}"));
}

// The make measure that wrote machine.json kept its time: the box says how long the run took.
TEST(Book, TheBoxSaysHowLongTheRunTook) {
  FixtureBook book;
  book.replace("book/measurements/testgpu/machine.json", R"("runtime": "13.0"},)",
               R"("runtime": "13.0", "measure_seconds": 344.96, "build_seconds": 47.0},
  "run": {"chapters": ["1", "2", "A"], "seconds_by_chapter": {"tests": 18.5}},)");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha,
                       "(max 1980 MHz); the run that measured it took 345 s for 3 chapters, "
                       "after a build of 47 s."))
      << alpha.substr(alpha.find("::: {.hwbox}"), 2000);
}

// A machine.json made before the run kept its time: no word of it.
TEST(Book, NoRunTimeNoRunLine) {
  FixtureBook book;
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_FALSE(contains(book.outputs()["1-alpha.md"], "the run that measured it"));
}

TEST(Book, MeasuredNowIsSaid) {
  FixtureBook book;
  Options options;
  options.root = book.root();
  options.out = "build/book/woven";
  options.measured_now = true;
  Diagnostics d;
  ASSERT_EQ(run(options, d), 0);
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"],
                       "measured [2026-11-29]{title=\"2026-11-29T15:02:11Z\"} in this build."));
}

TEST(Book, ClaimsAreMarkedAndReported) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto out = book.outputs();
  EXPECT_TRUE(contains(out["1-alpha.md"], "::: {.claim .claim-holds data-expr="));
  EXPECT_TRUE(contains(out["1-alpha.md"], "::: {.claim .claim-broken data-expr="));
  EXPECT_TRUE(contains(
      out["1-alpha.md"],
      "<details class=\"claim-verdict\"><summary>**On this GPU (Test GPU) the comparison does "
      "not hold:** `alpha/v2_fast@1048576 : time` = 400 µs, not < `0.1 * "
      "alpha/v1_naive@1048576 : time` = 100 µs. The sentence above is not borne out by this "
      "GPU's measurements.</summary>\n\n- `alpha/v2_fast@1048576 : time` = 400 µs not <"));
  // one line, the comparisons folded under it
  EXPECT_TRUE(contains(out["1-alpha.md"],
                       "<details class=\"claim-verdict\"><summary>Holds on Test GPU.</summary>\n"));
  EXPECT_TRUE(contains(out["2-beta.md"], "::: {.claim .claim-unmeasured"));
  auto claims = nlohmann::json::parse(out["claims.json"]);
  EXPECT_EQ(claims["summary"]["holds"], 1);
  EXPECT_EQ(claims["summary"]["broken"], 1);
  EXPECT_EQ(claims["summary"]["not yet measured"], 1);
  EXPECT_EQ(claims["claims"][1]["where"], "chapters/1-alpha.md:28");
  EXPECT_EQ(claims["claims"][1]["comparisons"][0]["right_value"]["value"], 1e-4);
  EXPECT_TRUE(contains(out["claims.md"], "| **broken** | chapters/1-alpha.md:28 |"));
}

TEST(Book, SymbolsTableAndReport) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto out = book.outputs();
  EXPECT_TRUE(
      contains(out["B-symbols.md"], "| $N_\\text{SM}$ | SMs | — | `machine : sm_count` | [132]"));
  EXPECT_TRUE(contains(out["B-symbols.md"], "[1](1-alpha.html), [2](2-beta.html)"));
  EXPECT_TRUE(contains(out["B-symbols.md"], "[4.92 TB/s]"));  // B_dram_peak, computed
  auto symbols = nlohmann::json::parse(out["symbols.json"]);
  EXPECT_EQ(symbols["symbols"][0]["symbol"], "B_copy");
  EXPECT_EQ(symbols["symbols"][0]["value"]["value"], 4e12);
  EXPECT_EQ(symbols["chapters"]["1"].size(), 4u);
}

TEST(Book, BookJsonAndRooflineInputs) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto out = book.outputs();
  auto order = nlohmann::json::parse(out["book.json"]);
  ASSERT_EQ(order["chapters"].size(), 3u);
  EXPECT_EQ(order["chapters"][0]["basename"], "1-alpha");
  EXPECT_EQ(order["chapters"][0]["measured"], "2026-11-29T15:02:11Z");
  EXPECT_EQ(order["chapters"][0]["stale"], false);
  EXPECT_TRUE(order["chapters"][1]["measured"].is_null());
  auto inputs = nlohmann::json::parse(out["roofline-inputs.json"]);
  EXPECT_EQ(inputs["ceilings"]["copy_bandwidth"]["value"], 4e12);
  EXPECT_EQ(inputs["figures"].size(), 3u);  // 1, 2 and book
  auto v2 = inputs["chapters"][0]["kernels"][1];
  EXPECT_EQ(v2["flops"], 1048576.0);
  EXPECT_DOUBLE_EQ(v2["flop_rate"].get<double>(), 1048576 / 4e-4);
  EXPECT_DOUBLE_EQ(v2["model_intensity"].get<double>(), 0.25);
  EXPECT_EQ(inputs["chapters"][0]["points"][1]["placed_by"], "model_bytes");
  EXPECT_TRUE(inputs["chapters"][1]["kernels"][0]["time"].is_null());
}

TEST(Book, ChangedCodeMakesTheNumbersStale) {
  FixtureBook book;
  book.write("src/alpha/alpha.cu", "// changed\n");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_TRUE(
      contains(run.printed, "chapters/1-alpha.md:1: warning: the numbers of chapter 1 are stale"));
  auto out = book.outputs();
  EXPECT_TRUE(contains(out["1-alpha.md"], "::: {.hwbox .stale}"));
  EXPECT_TRUE(contains(out["1-alpha.md"], "make measure CHAPTER=1"));
  EXPECT_EQ(nlohmann::json::parse(out["book.json"])["chapters"][0]["stale"], true);
}

TEST(Book, AStaleRecordLacksNewResultsAndCeilingsAsNotYetMeasured) {
  FixtureBook book;
  book.replace("chapters/1-alpha.md", "The syntax itself",
               "A new rung takes [alpha/v3_new@1 : time]{.m} under [machine : "
               "read_bandwidth]{.m}; v1 has a new counter [alpha/v1_naive@2^20 : "
               "new_counter]{.m}.\n\nThe syntax itself");
  // While the records are up to date, a result or ceiling they lack is a mistake in the prose.
  auto fresh = book.weave();
  EXPECT_EQ(fresh.status, 2);
  EXPECT_TRUE(contains(fresh.printed, "no result 'alpha/v3_new@1'")) << fresh.printed;
  EXPECT_TRUE(contains(fresh.printed, "has no ceiling or property 'read_bandwidth'"))
      << fresh.printed;
  EXPECT_TRUE(contains(fresh.printed, "has no quantity 'new_counter'")) << fresh.printed;
  // Once the chapter's code (here the harness's, which machine.json belongs to) has changed since
  // they were measured, they are simply not measured yet: the next make measure adds them.
  book.write("src/alpha/alpha.cu", "// changed\n");
  book.replace("chapters/1-alpha.md", "src: alpha", "src: bench");
  book.replace("book/measurements/testgpu/machine.json", "\"sources_sha256\": \"\"",
               "\"sources_sha256\": \"0123\"");
  auto stale = book.weave();
  ASSERT_EQ(stale.status, 0) << stale.printed;
  const std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "A new rung takes [not yet measured]{.unmeasured")) << alpha;
  EXPECT_TRUE(
      contains(alpha, "predates the harness's current code and has no ceiling 'read_bandwidth'"))
      << alpha;
  EXPECT_TRUE(contains(alpha, "v1 has a new counter [not yet measured]{.unmeasured")) << alpha;
}

TEST(Book, AStaleRecordLacksNewCountersAsNotYetMeasured) {
  FixtureBook book;
  book.replace("chapters/1-alpha.md", "The syntax itself",
               "It needs [alpha/v1_naive@2^20 : sass_shared_wavefronts]{.m} wavefronts.\n\n"
               "The syntax itself");
  // A counter added to the metric set after the record: while the code is unchanged, an error...
  auto fresh = book.weave();
  EXPECT_EQ(fresh.status, 2);
  EXPECT_TRUE(contains(fresh.printed, "has no quantity 'sass_shared_wavefronts'")) << fresh.printed;
  // ...and once the chapter's code has changed, the next make measure records it.
  book.write("src/alpha/alpha.cu", "// changed\n");
  auto stale = book.weave();
  ASSERT_EQ(stale.status, 0) << stale.printed;
  const std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "It needs [not yet measured]{.unmeasured")) << alpha;
  EXPECT_TRUE(contains(alpha,
                       "predates its chapter's current code and has no quantity "
                       "'sass_shared_wavefronts'"))
      << alpha;
}

TEST(Book, StrictFailsOnStaleBrokenAndUnmeasured) {
  FixtureBook book;
  book.write("src/alpha/alpha.cu", "// changed\n");
  auto run = book.weave(true);
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(
      contains(run.printed, "chapters/1-alpha.md:1: error: the numbers of chapter 1 are stale"));
  EXPECT_TRUE(contains(run.printed, "chapters/1-alpha.md:28: error: claim is broken"));
  EXPECT_TRUE(contains(run.printed, "chapters/2-beta.md:12: error: not yet measured (--strict)"));
  EXPECT_TRUE(book.outputs().empty());
}

TEST(Book, NothingMeasuredStillWeaves) {
  FixtureBook book;
  std::filesystem::remove_all(book.root() / "book/measurements");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_TRUE(contains(run.printed, "holds no measurement records"));
  auto out = book.outputs();
  EXPECT_TRUE(contains(out["1-alpha.md"], "[not yet measured]{.unmeasured"));
  // No ceilings, so no figure: a note instead of a broken image, and nothing for the plotter.
  EXPECT_TRUE(
      contains(out["1-alpha.md"],
               "[*The alpha ladder*: the roofline is drawn once this GPU's ceilings are measured"));
  EXPECT_FALSE(contains(out["1-alpha.md"], "roofline:"));
  auto inputs = nlohmann::json::parse(out["roofline-inputs.json"]);
  EXPECT_TRUE(inputs["chapters"].empty());
  EXPECT_TRUE(inputs["figures"].empty());
}

TEST(Book, RooflinesArePlacedByCountedBytesWithAKeyAndAltText) {
  FixtureBook book;
  const std::string record = "book/measurements/testgpu/1.json";
  book.replace(
      record,
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"})",
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"},
                    "dram_bytes": {"median": 2097152, "min": 2097152, "max": 2097152, "n": 1, "unit": "B"},
                    "l2_bytes": {"median": 8388608, "min": 8388608, "max": 8388608, "n": 1, "unit": "B"},
                    "l1_bytes": {"median": 16777216, "min": 16777216, "max": 16777216, "n": 1, "unit": "B"})");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  auto out = book.outputs();
  auto inputs = nlohmann::json::parse(out["roofline-inputs.json"]);
  EXPECT_DOUBLE_EQ(inputs["ceilings"]["dram_theoretical"]["value"].get<double>(),
                   2 * 3201e6 * 6144 / 8);
  auto chapter = inputs["chapters"][0];
  EXPECT_EQ(chapter["levels"], true);
  // v1: the chapter's 2^20 FLOPs over the 2^21 DRAM bytes counted, not over its 4 x 2^20 model
  // bytes.
  EXPECT_EQ(chapter["points"][0]["placed_by"], "dram_bytes");
  EXPECT_DOUBLE_EQ(chapter["points"][0]["intensity"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(chapter["points"][0]["l2_intensity"].get<double>(), 0.125);
  EXPECT_EQ(chapter["kernels"][0]["dram_bytes"], 2097152.0);
  EXPECT_EQ(chapter["kernels"][0]["number"], 1);
  // v2 has no count: placed by its model bytes.
  EXPECT_EQ(chapter["points"][1]["placed_by"], "model_bytes");
  EXPECT_DOUBLE_EQ(chapter["points"][1]["intensity"].get<double>(), 0.25);
  EXPECT_TRUE(chapter["points"][1]["l2_intensity"].is_null());
  EXPECT_EQ(inputs["book_points"].size(), 2u);

  const std::string& alpha = out["1-alpha.md"];
  for (const char* part :
       {"Filled markers: placed by DRAM bytes counted by ncu; hollow: by the chapter's model bytes",
        "{alt=\"Log-log roofline of chapter 1's 2 measured kernels as numbered markers",
        "1 by DRAM bytes counted by ncu, 1 by the chapter's model bytes",
        "Roofs drawn: B_dram 4.92 TB/s (theoretical), B_copy 4.00 TB/s.",
        "2 kernels sit left of the ridge, measured against B_copy, from 0.052% (v1_naive) to 0.26% "
        "(v2_fast) of it.",
        "::: {.roofline-key}\n| # | kernel | FLOP/B | FLOP/s | of roof |",
        "| 1 | `v1_naive` | 0.500 | 1.05 G | 0.052% $B_\\text{copy}$ |",
        "| 2 | `v2_fast` | 0.250 ○ | 2.62 G | 0.26% $B_\\text{copy}$ |",
        "○ placed by the chapter's model bytes",
        "](figures/roofline-1-levels.svg){alt=\"Hierarchical roofline of chapter 1"})
    EXPECT_TRUE(contains(alpha, part)) << part << "\n" << alpha;
  // The key follows the figure's paragraph; the levels figure follows the key.
  EXPECT_LT(alpha.find("roofline-1.svg"), alpha.find("{.roofline-key}"));
  EXPECT_LT(alpha.find("{.roofline-key}"), alpha.find("roofline-1-levels.svg"));
}

TEST(Book, WithoutCountsNoLevelsFigureAndTwoFiguresInOneParagraphEachGetAKey) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto out = book.outputs();
  EXPECT_FALSE(contains(out["1-alpha.md"], "-levels.svg"));
  EXPECT_EQ(nlohmann::json::parse(out["roofline-inputs.json"])["chapters"][0]["levels"], false);
  // Beta is not measured: its figure has nothing to key. The book's figure, in the same
  // paragraph, gets its alt text and its key after the paragraph.
  const std::string& beta = out["2-beta.md"];
  EXPECT_TRUE(contains(
      beta,
      "figures/roofline-book.svg){alt=\"Log-log roofline of every chapter's 2 measured kernels"));
  size_t key = beta.find("::: {.roofline-key}");
  ASSERT_NE(key, std::string::npos) << beta;
  EXPECT_LT(beta.find("roofline-book.svg"), key);
  EXPECT_TRUE(contains(beta.substr(key), "| 1 | 1 `v1_naive` |"));
}

// A chapter may list other chapters' results for a figure of its own (figure: NAME, shown by
// roofline:ID/NAME): they are labelled with their chapter, get the table of model bytes beside
// the counted ones, and the book's figure still shows each kernel once, in its own chapter.
TEST(Book, ANamedFigureBorrowsOtherChaptersKernels) {
  FixtureBook book;
  const std::string record = "book/measurements/testgpu/1.json";
  book.replace(
      record,
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"})",
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"},
                    "dram_bytes": {"median": 2097152, "min": 2097152, "max": 2097152, "n": 1, "unit": "B"},
                    "l2_bytes": {"median": 8388608, "min": 8388608, "max": 8388608, "n": 1, "unit": "B"},
                    "l1_bytes": {"median": 16777216, "min": 16777216, "max": 16777216, "n": 1, "unit": "B"})");
  book.replace(
      "chapters/2-beta.md", "  - {name: \"beta/v1@4096x4096\", flops: 100, bytes: 200}\n",
      "  - {name: \"beta/v1@4096x4096\", flops: 100, bytes: 200}\n"
      "  - {name: \"alpha/v1_naive@2^20\", flops: 1048576, bytes: 4194304, figure: rungs}\n"
      "  - {name: \"alpha/v2_fast@2^20\", flops: \"2^20\", bytes: \"4 * 2^20\", figure: rungs}\n");
  book.replace("chapters/2-beta.md", "![Beta on the roofline](roofline:2)",
               "![Every last rung](roofline:2/rungs)\n\n![Beta on the roofline](roofline:2)");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  auto out = book.outputs();
  auto inputs = nlohmann::json::parse(out["roofline-inputs.json"]);
  // Alpha's two kernels once in the book, though beta's figure shows them too.
  EXPECT_EQ(inputs["book_points"].size(), 2u);
  bool found = false;
  for (const auto& c : inputs["chapters"]) {
    if (c["id"] != "2-rungs") continue;
    found = true;
    EXPECT_EQ(c["chapter"], "2");
    EXPECT_EQ(c["levels"], true);
    EXPECT_EQ(c["kernels"][0]["owner"], "1");
    EXPECT_EQ(c["kernels"][0]["in_book"], false);
    EXPECT_EQ(c["points"][0]["chapter"], "1");
  }
  EXPECT_TRUE(found) << inputs.dump(2);
  bool listed = false;
  for (const auto& f : inputs["figures"])
    listed = listed || f["path"] == "figures/roofline-2-rungs.svg";
  EXPECT_TRUE(listed);

  const std::string& beta = out["2-beta.md"];
  for (const char* part :
       {"](figures/roofline-2-rungs.svg){alt=\"Log-log roofline of chapter 2's figure rungs, its 2 "
        "measured kernels",
        "| 1 | 1 `v1_naive` | 0.500 | 1.05 G |",
        "](figures/roofline-2-rungs-levels.svg){alt=\"Hierarchical roofline of chapter 2's figure "
        "rungs",
        "::: {.roofline-bytes}\n| # | kernel | model bytes | DRAM | DRAM / model | L2 | L1 "
        "global/local | shared ≤ |",
        "| 2 | 1 `v2_fast` | "})
    EXPECT_TRUE(contains(beta, part)) << part << "\n" << beta;
  // The bytes table follows the levels figure, and names each count or says there is none.
  size_t table = beta.find("::: {.roofline-bytes}");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(beta.find("roofline-2-rungs-levels.svg"), table);
  std::string row = beta.substr(beta.find("| 1 | 1 `v1_naive` |", table));
  row = row.substr(0, row.find('\n'));
  EXPECT_TRUE(contains(row, "| 4 MiB | 2 MiB | 0.500× | 8 MiB | 16 MiB | – |"))
      << row;  // 2^21 counted over 2^22
  EXPECT_TRUE(contains(beta.substr(table), "| 2 | 1 `v2_fast` | 4 MiB | – | – | – | – | – |"))
      << beta.substr(table);  // no counts
  // Beta's box lists its own result only, not the two it borrowed.
  std::string box = beta.substr(beta.find("::: {.hwbox}"));
  box = box.substr(0, box.find("\n:::\n"));
  EXPECT_TRUE(contains(box, "`beta/v1@4096x4096`")) << box;
  EXPECT_FALSE(contains(box, "alpha/")) << box;
  // Alpha's own page is as before: no bytes table on a chapter's own figure.
  EXPECT_FALSE(contains(out["1-alpha.md"], "roofline-bytes"));
}

// The levels figure: a shared-memory level at 128 B per wavefront of the LSU's shared pipe, the L1
// level named for what it counts (global and local bytes), B_L2 a measured stream; a kernel whose
// L2 bytes exceed what the L1 and shared counters saw (TMA, wgmma) is named and loses those two.
TEST(Book, TheLevelsFigureCountsSharedMemoryAndNamesWhatItCannotSee) {
  FixtureBook book;
  const std::string record = "book/measurements/testgpu/1.json";
  book.replace(
      record,
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"})",
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"},
                    "dram_bytes": {"median": 2097152, "min": 2097152, "max": 2097152, "n": 1, "unit": "B"},
                    "l2_bytes": {"median": 8388608, "min": 8388608, "max": 8388608, "n": 1, "unit": "B"},
                    "l1_bytes": {"median": 16777216, "min": 16777216, "max": 16777216, "n": 1, "unit": "B"},
                    "shared_wavefronts": {"median": 16384, "min": 16384, "max": 16384, "n": 1, "unit": ""})");
  book.replace(record,
               R"("time": {"median": 4.0e-4, "min": 3.9e-4, "max": 4.1e-4, "n": 10, "unit": "s"})",
               R"("time": {"median": 4.0e-4, "min": 3.9e-4, "max": 4.1e-4, "n": 10, "unit": "s"},
                    "dram_bytes": {"median": 2097152, "min": 2097152, "max": 2097152, "n": 1, "unit": "B"},
                    "l2_bytes": {"median": 8388608, "min": 8388608, "max": 8388608, "n": 1, "unit": "B"},
                    "l1_bytes": {"median": 0, "min": 0, "max": 0, "n": 1, "unit": "B"},
                    "shared_wavefronts": {"median": 1024, "min": 1024, "max": 1024, "n": 1, "unit": ""})");
  book.replace(
      "book/measurements/testgpu/machine.json",
      R"("copy_bandwidth": {"median": 4.0e12, "min": 3.9e12, "max": 4.1e12, "n": 10, "unit": "B/s"},)",
      R"("copy_bandwidth": {"median": 4.0e12, "min": 3.9e12, "max": 4.1e12, "n": 10, "unit": "B/s"},
    "l2_bandwidth": {"median": 7.7e12, "min": 7.6e12, "max": 7.8e12, "n": 10, "unit": "B/s"},
    "shared_bandwidth": {"median": 3.3e13, "min": 3.2e13, "max": 3.4e13, "n": 10, "unit": "B/s"},)");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  auto out = book.outputs();
  auto chapter = nlohmann::json::parse(out["roofline-inputs.json"])["chapters"][0];
  EXPECT_EQ(chapter["levels"], true);
  // v1: 2^20 FLOPs over 128 x 2^14 shared bytes; every L2 byte is accounted for.
  EXPECT_DOUBLE_EQ(chapter["points"][0]["shared_intensity"].get<double>(), 0.5);
  EXPECT_TRUE(chapter["points"][0]["lsu_unseen_bytes"].is_null());
  EXPECT_EQ(chapter["kernels"][0]["shared_wavefronts"], 16384.0);
  // v2: 2^23 L2 bytes, no L1 bytes and 2^17 shared ones: the rest passed neither counter.
  EXPECT_DOUBLE_EQ(chapter["points"][1]["lsu_unseen_bytes"].get<double>(), 8388608.0 - 131072);
  EXPECT_DOUBLE_EQ(chapter["kernels"][1]["lsu_unseen_bytes"].get<double>(), 8388608.0 - 131072);
  EXPECT_TRUE(chapter["points"][1]["l1_intensity"].is_null());
  const std::string& alpha = out["1-alpha.md"];
  for (const char* part :
       {"per global or local byte through L1 (triangle: `l1tex__t_bytes`, which counts no shared "
        "memory) and per shared-memory byte (diamond: 128 B for each wavefront",
        "$B_\\text{L2}$ for L2, appendix A's measured L2 bandwidth",
        "Kernel 2 `v2_fast` has no triangle or diamond: 98% of the bytes it exchanged with L2 "
        "passed neither the L1's tag stage nor the shared pipe's counters.",
        "$B_\\text{smem}$ for triangles and diamonds both, since global, local and shared bytes "
        "pass the L1's one data path.",
        "B_L2 (L2, measured), B_smem (L1 and shared).",
        "Kernel 2 v2_fast has no L1 or shared point"})
    EXPECT_TRUE(contains(alpha, part)) << part << "\n" << alpha;
  EXPECT_FALSE(contains(alpha, "per L1 byte")) << alpha;
}

TEST(Book, ANamedFigureWithoutItsKernelsIsAnError) {
  FixtureBook book;
  book.replace("chapters/2-beta.md", "![Beta on the roofline](roofline:2)",
               "![Beta on the roofline](roofline:2/rungs)");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(
      run.printed,
      "roofline:2/rungs: chapter 2 lists no kernel with figure: rungs in its front matter"))
      << run.printed;
  FixtureBook bad;
  bad.replace("chapters/2-beta.md", "flops: 100, bytes: 200}",
              "flops: 100, bytes: 200, figure: \"Bad name\"}");
  auto bad_run = bad.weave();
  EXPECT_EQ(bad_run.status, 2);
  EXPECT_TRUE(contains(bad_run.printed, "a kernel's 'figure' names one of the chapter's figures"))
      << bad_run.printed;
}

// A record made before every quantity named its unit ("unit": "" on a model's time, bytes and a
// count): the weaver gives each the unit its name has by CONVENTIONS' rule, so the page and the
// claim verdict show 1.50 ms, not 1.5×10^-3.
TEST(Book, RecordsBeforeTheUnitRuleGetUnitsByName) {
  FixtureBook book;
  const std::string record = "book/measurements/testgpu/1.json";
  book.replace(record, "\"bytes\": {\"median\": 4194304,",
               "\"predicted_time\": {\"median\": 1.5e-3, \"unit\": \"\"}, "
               "\"model_bytes\": {\"median\": 8388608, \"unit\": \"\"}, "
               "\"warp_instructions\": {\"median\": 941000000, \"unit\": \"\"}, \"bytes\": "
               "{\"median\": 4194304,");
  book.replace(
      "chapters/1-alpha.md", "A plain div passes through,",
      "Predicted [alpha/v1_naive@2^20 : predicted_time]{.m}, [alpha/v1_naive@2^20 : "
      "model_bytes]{.m}, "
      "[alpha/v1_naive@2^20 : warp_instructions]{.m} instructions.\n\n"
      "::: {.claim expr=\"alpha/v1_naive@2^20 : time < alpha/v1_naive@2^20 : predicted_time\"}\n"
      "Faster than predicted.\n:::\n\nA plain div passes through,");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "Predicted [1.50 ms]{.measured")) << alpha;
  EXPECT_TRUE(contains(alpha, "[8 MiB]{.measured"));
  EXPECT_TRUE(contains(alpha, "[9.41×10^8^]{.measured"));  // declared dimensionless: a count
  EXPECT_TRUE(contains(alpha, "`alpha/v1_naive@1048576 : predicted_time` = 1.50 ms"));
}

}  // namespace
}  // namespace weave
