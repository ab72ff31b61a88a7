// A stale record (its sources_sha256 is not the hash of its chapter's code today) is shown as stale
// wherever its numbers appear: the reference's column of the box, the claims' verdicts, a value
// shown beside one this GPU did not give, the GPUs page; never an error for a GPU that is not the
// one woven. And a broken claim's verdict in a reader's words, with the values on both GPUs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"

namespace weave {
namespace {

using testing::copy_gpu;
using testing::FixtureBook;

using testing::contains;

auto woven_for(const std::string& gpu, bool strict = false) {
  return [=](Options& o) {
    o.gpu = gpu;
    o.reference = "testgpu";
    o.strict = strict;
  };
}

// Its record of chapter 1 measured other code than the chapter's today.
void make_stale(const FixtureBook& book, const std::string& slug) {
  const std::string path = "book/measurements/" + slug + "/1.json";
  nlohmann::json j = nlohmann::json::parse(book.read(path));
  j["sources_sha256"] = std::string(64, '0');
  book.write(path, j.dump(2));
}

// othergpu: the fast kernel at 600 us (the fixture's first claim breaks there), the naive one
// skipped (so a value of it is shown with the reference's beside it).
void other_gpu(const FixtureBook& book) {
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v2_fast@1048576"]["time"] = {
        {"median", 6.0e-4}, {"min", 5.9e-4}, {"max", 6.1e-4}, {"n", 10}, {"unit", "s"}};
  });
}

int stale_errors(const FixtureBook::Run& run) {
  int n = 0;
  for (const auto& e : run.diagnostics.errors()) n += contains(e.message, "stale");
  return n;
}

TEST(Stale, ASecondGpusStaleRecordIsMarkedWhereverItsNumbersAppear) {
  FixtureBook book;
  other_gpu(book);
  make_stale(book, "testgpu");  // the reference, beside othergpu
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_FALSE(contains(run.printed, "stale")) << run.printed;  // not even a warning
  const std::string alpha = book.outputs()["1-alpha.md"];
  for (const char* part :
       {"**Beside it, the reference GPU:** Test GPU, measured [2026-11-29]{title=",
        "[**Stale:** measured with this chapter's code of that date, which has changed since; "
        "its numbers below are those of the earlier code.]{.stale-note}",
        "|  | reference, stale | [400 µs]",
        "The sentence is a finding about the reference GPU, Test GPU, where it holds: 400 µs < "
        "500 µs (stale: measured on 2026-11-29, with code that has changed since).</summary>",
        "On the reference GPU, Test GPU: held (stale: measured on 2026-11-29, with code that has "
        "changed since).\n\n- "})
    EXPECT_TRUE(contains(alpha, part)) << part << "\n" << alpha;
  EXPECT_FALSE(contains(alpha, "::: {.hwbox .stale")) << alpha;  // this GPU's own are current
  const std::string page = book.outputs()["gpus.md"];
  EXPECT_TRUE(contains(page,
                       "| *measured; SM clock, start / end* | 2026-11-29 (**stale**: "
                       "measured with the chapter's code of that date, which has changed "
                       "since); 1980 / 1965 MHz (max 1980) | 2026-11-29; 1980"))
      << page;
  // A strict build of othergpu does not stop on the reference's stale record.
  EXPECT_EQ(stale_errors(book.weave_with(woven_for("othergpu", true))), 0);
}

TEST(Stale, AValueShownBesideOneThisGpuDidNotGiveSaysItIsStale) {
  FixtureBook book;
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v1_naive@1048576"] = {{"status", "skipped"},
                                              {"reason", "needs 26.0 GiB, 23.6 GiB free"}};
  });
  make_stale(book, "testgpu");
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  const std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha,
                       "(Test GPU, stale: measured on 2026-11-29 with earlier code: "
                       "[1.00 ms]{.measured"))
      << alpha;
}

TEST(Stale, TheWovenGpusStaleRecordStillFailsAStrictBuild) {
  FixtureBook book;
  other_gpu(book);
  make_stale(book, "othergpu");
  auto run = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(run.status, 0) << run.printed;
  const std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "::: {.hwbox .stale .beside}")) << alpha;
  EXPECT_TRUE(contains(alpha,
                       "= 500 µs (stale: measured on 2026-11-29, with code that has "
                       "changed since). The sentence is a finding about the reference GPU, "
                       "Test GPU, where it holds: 400 µs < 500 µs.</summary>"))
      << alpha;
  EXPECT_EQ(stale_errors(book.weave_with(woven_for("othergpu", true))), 1);
}

TEST(Verdict, ABrokenClaimSaysWhatItIsWithTheValuesOnBothGpus) {
  FixtureBook book;
  other_gpu(book);
  book.replace("chapters/1-alpha.md", "The syntax itself,",
               "::: {.claim expr=\"alpha/v2_fast@2^20 : time < 0.3 * alpha/v1_naive@2^20 : time "
               "and alpha/v2_fast@2^20 : time < 0.2 * alpha/v1_naive@2^20 : time and "
               "alpha/v2_fast@2^20 : time < 0.1 * alpha/v1_naive@2^20 : time and "
               "alpha/v2_fast@2^20 : time > 0 s\"}\nThree comparisons fail on both.\n:::\n\n"
               "The syntax itself,");
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  const std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(
      alpha,
      "<summary>**On this GPU (Other GPU) 3 of its 4 comparisons do not hold:** "
      "`alpha/v2_fast@1048576 : time` = 600 µs, not < `0.3 * alpha/v1_naive@1048576 : time` = "
      "300 µs; `alpha/v2_fast@1048576 : time` = 600 µs, not < `0.2 * alpha/v1_naive@1048576 : "
      "time` = 200 µs; and 1 more, listed below. On the reference GPU, Test GPU, it does not "
      "hold either: 400 µs, not < 300 µs; 400 µs, not < 200 µs.</summary>"))
      << alpha;
  // The first claim: broken here, held on the reference (one comparison).
  EXPECT_TRUE(contains(alpha,
                       "<summary>**On this GPU (Other GPU) the comparison does not hold:** "
                       "`alpha/v2_fast@1048576 : time` = 600 µs, not < `0.5 * "
                       "alpha/v1_naive@1048576 : time` = 500 µs. The sentence is a finding about "
                       "the reference GPU, Test GPU, where it holds: 400 µs < 500 µs.</summary>"))
      << alpha;
  EXPECT_FALSE(contains(alpha, "needs revisiting")) << alpha;
}

TEST(Verdict, OnTheReferenceABrokenClaimIsNotBorneOutByItsMeasurements) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"],
                       "<summary>**On this GPU (Test GPU) the comparison does not hold:** "
                       "`alpha/v2_fast@1048576 : time` = 400 µs, not < `0.1 * "
                       "alpha/v1_naive@1048576 : time` = 100 µs. The sentence above is not borne "
                       "out by this GPU's measurements.</summary>"));
}

TEST(Stale, AHoldingClaimOnAStaleRecordSaysSoInOneParenthesis) {
  FixtureBook book;
  make_stale(book, "testgpu");
  book.replace("chapters/1-alpha.md", "The syntax itself,",
               "::: {.claim expr=\"alpha/v2_fast@2^20 : time < alpha/v1_naive@2^20 : time and "
               "alpha/v2_fast@2^20 : time > 0 s\"}\nTwo comparisons.\n:::\n\nThe syntax itself,");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"],
                       "<summary>Holds on Test GPU (both comparisons; stale: measured on "
                       "2026-11-29, with code that has changed since).</summary>"))
      << book.outputs()["1-alpha.md"];
  EXPECT_EQ(stale_errors(book.weave(true)), 1);  // the woven GPU's own: a strict build stops
}

}  // namespace
}  // namespace weave
