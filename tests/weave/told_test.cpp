// Where the book stands on the GPU it is woven for (told.h): each chapter's claims counted by
// verdict in book.json, each claim's div given an id to link to, and the GPUs page's list of the
// claims that do not hold, those that cannot be checked there and the chapters whose records are
// stale; and the page's GPUs as columns with each ladder's last rung and peer (last_rungs.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"
#include "last_rungs.h"

namespace weave {
namespace {

using testing::copy_gpu;
using testing::FixtureBook;

using testing::contains;

auto woven_for(const std::string& gpu) {
  return [=](Options& o) {
    o.gpu = gpu;
    o.reference = "testgpu";
  };
}

nlohmann::json timed(double seconds) {
  return {{"time",
           {{"median", seconds}, {"min", seconds}, {"max", seconds}, {"n", 10}, {"unit", "s"}}}};
}

// othergpu: v2_fast at 600 µs (the chapter's first claim, line 24, breaks there; its second, line
// 28, breaks on both), a library peer beside it, and its record of chapter 1 stale.
void other_gpu(const FixtureBook& book) {
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v2_fast@1048576"] = timed(6.0e-4);
    j["results"]["alpha/peer_lib@1048576"] = timed(3.0e-4);
    j["sources_sha256"] = std::string(64, '0');
  });
}

TEST(Told, EachChaptersClaimsAreCountedByVerdictInBookJson) {
  FixtureBook book;
  other_gpu(book);
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  auto j = nlohmann::json::parse(book.outputs()["book.json"]);
  EXPECT_EQ(j["gpu"], "Other GPU");
  EXPECT_EQ(j["reference_gpu"], "Test GPU");
  EXPECT_EQ(j["woven_is_reference"], false);
  const auto& alpha = j["chapters"][0]["claims"];
  EXPECT_EQ(alpha["total"], 2);
  EXPECT_EQ(alpha["hold"], 0);
  ASSERT_EQ(alpha["broken"].size(), 2u);
  EXPECT_EQ(alpha["broken"][0]["line"], 24);
  EXPECT_EQ(alpha["broken"][0]["anchor"], "claim-24");
  // chapter 2 has no record: its claim cannot be checked, counted apart from the broken ones
  const auto& beta = j["chapters"][1]["claims"];
  EXPECT_EQ(beta["total"], 1);
  EXPECT_EQ(beta["broken"].size(), 0u);
  ASSERT_EQ(beta["unchecked"].size(), 1u);
  EXPECT_EQ(beta["unchecked"][0]["why"], "not measured");
  // each claim's div carries the id the links name
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"], "\" #claim-24}\nThe fast one more than"));
}

TEST(Told, TheGpusPageListsWhatDoesNotHoldWithItsWordsAndValues) {
  FixtureBook book;
  other_gpu(book);
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  const std::string page = book.outputs()["gpus.md"];
  for (const char* part :
       {"## Broken claims: where the book does not hold on Other GPU {#does-not-hold}",
        "Of the book's 3 claims, 0 hold on Other GPU.", "(the weaver marks it broken)",
        "### Broken: the claims that do not hold on Other GPU {#claims-broken}",
        "- **[1, line 24](1-alpha.html#claim-24)**: The fast one more than halves the time.\\\n"
        "  *Broken by* `alpha/v2_fast@1048576 : time` = 600 µs, not < `0.5 * "
        "alpha/v1_naive@1048576 : time` = 500 µs. It holds on the reference GPU.",
        "- **[1, line 28](1-alpha.html#claim-28)**: The fast one is ten times faster (it is "
        "not).",
        "It does not hold on the reference GPU either.",
        "### Unchecked: the claims that cannot be checked on Other GPU {#claims-unchecked}",
        "- **[2, line 14](2-beta.html#claim-14)**:", "*Never measured on this GPU:*",
        "### Stale: the chapters whose records are stale on Other GPU {#records-stale}",
        "- [1 Alpha](1-alpha.html): measured on 2026-11-29 with code that has changed since; "
        "its 2 claims were checked on those numbers."})
    EXPECT_TRUE(contains(page, part)) << part << "\n" << page;
}

TEST(Told, AReferenceBookWhereAllHoldsSaysNone) {
  FixtureBook book;
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json&) {});
  book.replace("chapters/1-alpha.md", "< 0.1 * alpha", "< 0.9 * alpha");  // holds now
  book.replace("chapters/2-beta.md", "beta/v1@4096x4096 : time < 1 s", "1 < 2");
  ASSERT_EQ(book.weave_with(woven_for("")).status, 0);
  const std::string page = book.outputs()["gpus.md"];
  EXPECT_TRUE(contains(page, "Of the book's 3 claims, 3 hold on Test GPU.")) << page;
  EXPECT_TRUE(contains(page, "None: every claim checked here holds.")) << page;
  EXPECT_FALSE(contains(page, "{#claims-unchecked}")) << page;
  EXPECT_TRUE(contains(page, "None: every chapter's record was measured with its current code."));
  auto j = nlohmann::json::parse(book.outputs()["book.json"]);
  EXPECT_EQ(j["woven_is_reference"], true);
  EXPECT_EQ(j["chapters"][0]["claims"]["hold"], 2);
}

TEST(Told, TheGpusAreColumnsAndEachLadderShowsItsLastRungAndPeer) {
  FixtureBook book;
  other_gpu(book);
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  const std::string page = book.outputs()["gpus.md"];
  for (const char* part :
       {"| | Test GPU (reference) | Other GPU (this book) |", "| folder | `testgpu` | `othergpu` |",
        "| SMs | 132 | 132 |", "| copy bandwidth | 4.00 TB/s |",
        "| `alpha/v2_fast@1048576` | 400 µs | 600 µs, 0.667× ref, 0.500× peer |",
        "| `alpha/peer_lib@1048576` | — | 300 µs |"})
    EXPECT_TRUE(contains(page, part)) << part << "\n" << page;
}

Record with_results(const std::vector<std::pair<std::string, double>>& times) {
  Record r;
  for (const auto& [key, t] : times) r.results[key]["time"].median = t;
  return r;
}

TEST(Told, TheLastRungIsTheHighestAtTheLargestSizeWithAPeer) {
  Record r = with_results({{"reduce/v1_naive@4096", 1e-5},
                           {"reduce/v7_last@4096", 2e-6},
                           {"reduce/v7_last@268435456", 2e-4},
                           {"reduce/v3_mid@268435456", 5e-4},
                           {"reduce/peer_cub@4096", 2e-6},
                           {"reduce/peer_cub@268435456", 1.9e-4},
                           {"fusion/short_v4_float4@64x4096", 1},
                           {"fusion/short_v1_unfused@64x4096", 1},
                           {"fusion/peer_copy@64x4096", 1},
                           {"launch/v5_fused@50x8", 1},  // no peer of its size: alone
                           {"launch/v5_fused@50x1", 1},
                           {"launch/peer_empty@50", 1},
                           {"launch/peer_empty@1", 1},
                           {"attention/v2_flash@4x16x8192x128x1", 1},
                           {"attention/v2_flash@4x16x8192x128x0", 1},
                           {"attention/peer_torch@4x16x8192x128x0", 1},
                           {"attention/peer_torch@4x16x8192x128x1", 1}});
  EXPECT_EQ(last_rungs_and_peers(r),
            (std::vector<std::string>{
                "attention/v2_flash@4x16x8192x128x0", "attention/peer_torch@4x16x8192x128x0",
                "fusion/short_v4_float4@64x4096", "fusion/peer_copy@64x4096",
                "launch/v5_fused@50x8", "reduce/v7_last@268435456", "reduce/peer_cub@268435456",
                // other peers, each at its largest size
                "launch/peer_empty@50"}));
  // no ladder: beside each peer, the results timed on its problem
  Record plain = with_results({{"copy/unit_stride@64", 1},
                               {"copy/unit_stride@128", 1},
                               {"copy/float4@128", 1},
                               {"copy/stride@128x2", 1},
                               {"copy/peer_memcpy@64", 1},
                               {"copy/peer_memcpy@128", 1}});
  EXPECT_EQ(last_rungs_and_peers(plain),
            (std::vector<std::string>{"copy/float4@128", "copy/unit_stride@128",
                                      "copy/peer_memcpy@128"}));
  // keys of no rung's shape are no rungs, whatever their length
  Record odd = with_results({{"/v1_x@1", 1},
                             {"a/v99999999999_x@1", 1},
                             {"a/peer_x@1", 1},
                             {"a/v2_x@" + std::string(100000, '9'), 1},
                             {"a/peer_x@" + std::string(100000, '9'), 1}});
  EXPECT_EQ(last_rungs_and_peers(odd),
            (std::vector<std::string>{"a/v2_x@" + std::string(100000, '9'),
                                      "a/peer_x@" + std::string(100000, '9')}));
}

}  // namespace
}  // namespace weave
