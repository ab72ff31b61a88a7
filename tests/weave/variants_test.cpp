// Prose that follows the record (book/SYNTAX.md, "Variants"): the block form ::: {.variants} with
// ::: {.when expr="..."} children and an optional last ::: {.otherwise}, chosen on each GPU's
// records; what an unchosen variant holds is neither woven nor checked; a relation that cannot
// be evaluated is an error at its line; the GPUs page says which variant each GPU got.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"

namespace weave {
namespace {

using testing::copy_gpu;
using testing::FixtureBook;

using testing::contains;

const std::string kChapter = "chapters/1-alpha.md";
const std::string kAnchor =
    "The syntax itself, `[alpha/v9@1 : time]{.m}`, is left alone in inline code.";
// Holds on the fixture's GPU (400 us against 1 ms), not on othergpu (600 us).
const std::string kHalves = "alpha/v2_fast@2^20 : time < 0.5 * alpha/v1_naive@2^20 : time";

// The chapter with `text` in place of the paragraph about inline code (chapter line 29 on).
void put(const FixtureBook& book, const std::string& text) {
  book.replace(kChapter, kAnchor, text);
}

// The line of `part` in the fixture's chapter 1 once `put`.
int line_of(const FixtureBook& book, const std::string& part) {
  const std::string text = book.read(kChapter);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + text.find(part), '\n'));
}

auto woven_for(const std::string& gpu, const std::string& reference = "testgpu") {
  return [=](Options& o) {
    o.gpu = gpu;
    o.reference = reference;
  };
}

// testgpu (the reference) and othergpu, whose fast kernel takes 600 us.
void two_gpus(const FixtureBook& book) {
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v2_fast@1048576"]["time"] = {
        {"median", 6.0e-4}, {"min", 5.9e-4}, {"max", 6.1e-4}, {"n", 10}, {"unit", "s"}};
  });
}

const std::string kTwoVariants =
    "::: {.variants}\n"
    "::: {.when expr=\"" +
    kHalves +
    "\"}\n"
    "More than halved, at [alpha/v2_fast@2^20 : time]{.m}.\n"
    ":::\n"
    "::: {.otherwise}\n"
    "Less than halved, at [alpha/v2_fast@2^20 : time]{.m}.\n"
    ":::\n"
    ":::";

TEST(Variants, EachGpuGetsItsOwnVariant) {
  FixtureBook book;
  two_gpus(book);
  put(book, kTwoVariants);
  auto reference = book.weave_with(woven_for(""));
  ASSERT_EQ(reference.status, 0) << reference.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "::: {.variants}\n::: {.when expr=\"" + kHalves +
                                  "\"}\nMore than halved, at [400 µs]{.measured"))
      << alpha;
  EXPECT_FALSE(contains(alpha, "Less than halved")) << alpha;
  EXPECT_FALSE(contains(alpha, "{.otherwise}")) << alpha;
  auto other = book.weave_with(woven_for("othergpu"));
  ASSERT_EQ(other.status, 0) << other.printed;
  alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "::: {.variants}\n::: {.otherwise}\nLess than halved, at [600 µs]"))
      << alpha;
  EXPECT_FALSE(contains(alpha, "More than halved")) << alpha;
}

TEST(Variants, WithoutOtherwiseNothingIsWovenWhenNoneHolds) {
  FixtureBook book;
  two_gpus(book);
  put(book, "Before.\n\n::: {.variants}\n::: {.when expr=\"" + kHalves +
                "\"}\nOnly where it halves.\n:::\n:::\n\nAfter.");
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "Before.\n\n::: {.variants}\n:::\n\nAfter.")) << alpha;
}

TEST(Variants, TheFirstWhenThatHoldsIsWoven) {
  FixtureBook book;
  put(book,
      "::: {.variants}\n::: {.when expr=\"alpha/v2_fast@2^20 : time > 1 s\"}\nFirst.\n:::\n"
      "::: {.when expr=\"" +
          kHalves +
          "\"}\nSecond.\n:::\n"
          "::: {.when expr=\"alpha/v2_fast@2^20 : time > 0 s\"}\nThird.\n:::\n"
          "::: {.otherwise}\nFourth.\n:::\n:::");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "Second.")) << alpha;
  for (const char* dropped : {"First.", "Third.", "Fourth."})
    EXPECT_FALSE(contains(alpha, dropped)) << dropped;
}

TEST(Variants, AClaimInAnUnchosenVariantIsNeitherCheckedNorReported) {
  FixtureBook book;
  two_gpus(book);
  put(book,
      "::: {.variants}\n::: {.when expr=\"" + kHalves +
          "\"}\n"
          "::: {.claim expr=\"alpha/v2_fast@2^20 : time < 0.45 * alpha/v1_naive@2^20 : time\"}\n"
          "The chosen one's claim.\n:::\n:::\n"
          "::: {.otherwise}\n"
          "::: {.claim expr=\"alpha/v2_fast@2^20 : time > 0.5 * alpha/v1_naive@2^20 : time\"}\n"
          "The other one's claim, which breaks where it is not chosen.\n:::\n:::\n:::");
  ASSERT_EQ(book.weave_with(woven_for("")).status, 0);
  auto claims = nlohmann::json::parse(book.outputs()["claims.json"])["claims"];
  std::string all = claims.dump();
  EXPECT_TRUE(contains(all, "The chosen one's claim.")) << all;
  EXPECT_FALSE(contains(all, "The other one's claim")) << all;
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "::: {.claim .claim-holds")) << alpha;
  // On othergpu the other one's claim is chosen and checked; the first is dropped unchecked.
  auto other = book.weave_with(woven_for("othergpu"));
  EXPECT_EQ(other.status, 0) << other.printed;
  // the chosen one's claim would break here (0.6 ms is not below 0.45 ms): it is not reported
  EXPECT_FALSE(contains(other.printed, ":" + std::to_string(line_of(book, "0.45 *")) + ":"))
      << other.printed;
  all = nlohmann::json::parse(book.outputs()["claims.json"])["claims"].dump();
  EXPECT_TRUE(contains(all, "The other one's claim")) << all;
  EXPECT_FALSE(contains(all, "The chosen one's claim.")) << all;
}

TEST(Variants, AValueInAnUnchosenVariantIsNotLookedUp) {
  // A counter only the reference counted (the H200's, say), woven in the variant it alone gets.
  FixtureBook book;
  two_gpus(book);
  put(book, "::: {.variants}\n::: {.when expr=\"" + kHalves +
                "\"}\n"
                "Counted: [alpha/v1_naive@2^20 : no_such_counter]{.m}.\n:::\n"
                "::: {.otherwise}\nNot counted.\n:::\n:::");
  auto other = book.weave_with(woven_for("othergpu"));
  EXPECT_EQ(other.status, 0) << other.printed;
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"], "Not counted.")) << other.printed;
  auto reference = book.weave_with(woven_for(""));  // chosen there: the missing quantity is found
  EXPECT_EQ(reference.status, 2);
  EXPECT_TRUE(contains(reference.printed, "has no quantity 'no_such_counter'"))
      << reference.printed;
}

TEST(Variants, AMissingValueInTheRelationIsAnErrorAtItsLine) {
  FixtureBook book;
  put(book,
      "::: {.variants}\n::: {.when expr=\"alpha/v9@2^20 : time < 1 s\"}\nA.\n:::\n"
      "::: {.otherwise}\nB.\n:::\n:::");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  const std::string at = kChapter + ":" + std::to_string(line_of(book, "{.when")) + ": error: ";
  EXPECT_TRUE(contains(run.printed, at + "variant 'alpha/v9@1048576 : time < 1 s': no result "
                                         "'alpha/v9@1048576'"))
      << run.printed;
}

TEST(Variants, ASkippedResultInTheRelationIsAnErrorAtItsLine) {
  FixtureBook book;
  copy_gpu(book, "thirdgpu", "Third GPU", [](nlohmann::json& j) {
    j["results"]["alpha/v1_naive@1048576"] = {{"status", "skipped"},
                                              {"reason", "needs 26.0 GiB, 23.6 GiB free"}};
  });
  put(book, kTwoVariants);
  auto run = book.weave_with(woven_for("thirdgpu"));
  EXPECT_EQ(run.status, 2);
  const std::string at = kChapter + ":" + std::to_string(line_of(book, "{.when")) + ": error: ";
  EXPECT_TRUE(contains(run.printed, at + "variant '" +
                                        std::string("alpha/v2_fast@1048576 : time < 0.5 * "
                                                    "alpha/v1_naive@1048576 : time") +
                                        "' cannot be chosen on this GPU: skipped on this GPU: "
                                        "needs 26.0 GiB, 23.6 GiB free"))
      << run.printed;
}

TEST(Variants, ACounterAGpuDidNotCountIsAnErrorAtItsLine) {
  // The reference counted dram_bytes; othergpu was measured without ncu.
  FixtureBook book;
  const std::string reference = "book/measurements/testgpu/1.json";
  nlohmann::json j = nlohmann::json::parse(book.read(reference));
  j["profiler"] = {{"tool", "ncu"}, {"version", "2025.3.1.0"}};
  j["results"]["alpha/v1_naive@1048576"]["dram_bytes"] = {
      {"median", 4718592}, {"min", 4718592}, {"max", 4718592}, {"n", 1}, {"unit", "B"}};
  book.write(reference, j.dump(2));
  copy_gpu(book, "othergpu", "Other GPU", [](nlohmann::json& record) {
    record.erase("profiler");
    record["results"]["alpha/v1_naive@1048576"].erase("dram_bytes");
  });
  put(book,
      "::: {.variants}\n::: {.when expr=\"alpha/v1_naive@2^20 : dram_bytes > "
      "alpha/v1_naive@2^20 : bytes\"}\nMore than the model.\n:::\n"
      "::: {.otherwise}\nNo more than the model.\n:::\n:::");
  auto reference_run = book.weave_with(woven_for(""));
  ASSERT_EQ(reference_run.status, 0) << reference_run.printed;
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"], "More than the model."));
  auto other = book.weave_with(woven_for("othergpu"));
  EXPECT_EQ(other.status, 2);
  EXPECT_TRUE(contains(other.printed,
                       ": error: variant 'alpha/v1_naive@1048576 : dram_bytes > "
                       "alpha/v1_naive@1048576 : bytes' cannot be chosen on this "
                       "GPU: not counted on this GPU"))
      << other.printed;
}

TEST(Variants, NotYetMeasuredSaysSoWhereThePassageStands) {
  FixtureBook book;
  book.replace("chapters/2-beta.md", "Beta has not been measured",
               "::: {.variants}\n::: {.when expr=\"beta/v1@4096x4096 : time < 1 s\"}\nFast.\n:::\n"
               "::: {.otherwise}\nSlow.\n:::\n:::\n\nBeta has not been measured");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string beta = book.outputs()["2-beta.md"];
  EXPECT_TRUE(contains(beta,
                       "::: {.variants}\n[Not yet measured: which passage stands here "
                       "depends on values not recorded yet (chapter 2 has no measurement "
                       "record yet).]{.unmeasured}\n:::"))
      << beta;
  EXPECT_EQ(book.weave(true).status, 2);  // a strict build wants it measured
}

TEST(Variants, NestWithClaimsAndSpans) {
  // A variant holds a claim, values and a variants div of its own; a claim holds a variants div;
  // in a list item and a block quote too.
  FixtureBook book;
  two_gpus(book);
  put(book,
      "::: {.variants}\n"
      "::: {.when expr=\"" +
          kHalves +
          "\"}\n"
          "Outer when, [machine : sm_count]{.m} SMs.\n\n"
          "::: {.variants}\n"
          "::: {.when expr=\"alpha/v2_fast@2^20 : time < 0.3 * alpha/v1_naive@2^20 : time\"}\n"
          "Inner when.\n"
          ":::\n"
          "::: {.otherwise}\n"
          "Inner otherwise, [alpha/v2_fast@2^20 : time]{.m}.\n\n"
          "::: {.claim expr=\"alpha/v2_fast@2^20 : time > 0.3 * alpha/v1_naive@2^20 : time\"}\n"
          "Nested claim.\n"
          ":::\n"
          ":::\n"
          ":::\n"
          ":::\n"
          "::: {.otherwise}\n"
          "Outer otherwise.\n"
          ":::\n"
          ":::\n\n"
          "::: {.claim expr=\"alpha/v2_fast@2^20 : time < alpha/v1_naive@2^20 : time\"}\n"
          "::: {.variants}\n"
          "::: {.when expr=\"" +
          kHalves +
          "\"}\nClaim's when.\n:::\n"
          "::: {.otherwise}\nClaim's otherwise.\n:::\n"
          ":::\n"
          ":::\n\n"
          "- A list item.\n\n"
          "  ::: {.variants}\n"
          "  ::: {.when expr=\"" +
          kHalves +
          "\"}\n  Item's when.\n  :::\n"
          "  ::: {.otherwise}\n  Item's otherwise.\n  :::\n"
          "  :::\n\n"
          "> ::: {.variants}\n"
          "> ::: {.when expr=\"" +
          kHalves +
          "\"}\n> Quote's when.\n> :::\n"
          "> ::: {.otherwise}\n> Quote's otherwise.\n> :::\n"
          "> :::");
  auto run = book.weave_with(woven_for(""));
  ASSERT_EQ(run.status, 0) << run.printed;
  std::string alpha = book.outputs()["1-alpha.md"];
  for (const char* part : {"Outer when, [132]{.measured", "Inner otherwise, [400 µs]{.measured",
                           "Nested claim.\n\n<details class=\"claim-verdict\"><summary>Holds on",
                           "Claim's when.\n:::\n:::\n\n<details",
                           "  Item's when.\n  :::\n  :::", "> Quote's when.\n> :::\n> :::"})
    EXPECT_TRUE(contains(alpha, part)) << part << "\n" << alpha;
  for (const char* dropped : {"Inner when.", "Outer otherwise.", "Claim's otherwise.",
                              "Item's otherwise.", "Quote's otherwise."})
    EXPECT_FALSE(contains(alpha, dropped)) << dropped << "\n" << alpha;
  auto claims = nlohmann::json::parse(book.outputs()["claims.json"])["claims"].dump();
  EXPECT_TRUE(contains(claims, "Nested claim.")) << claims;
  // On othergpu the outer otherwise: the nested claim is not checked there.
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  alpha = book.outputs()["1-alpha.md"];
  for (const char* part :
       {"Outer otherwise.", "Claim's otherwise.", "  Item's otherwise.", "> Quote's otherwise."})
    EXPECT_TRUE(contains(alpha, part)) << part << "\n" << alpha;
  EXPECT_FALSE(contains(alpha, "Inner otherwise")) << alpha;
  claims = nlohmann::json::parse(book.outputs()["claims.json"])["claims"].dump();
  EXPECT_FALSE(contains(claims, "Nested claim.")) << claims;
}

TEST(Variants, MisplacedPartsAreErrorsAtTheirLines) {
  FixtureBook book;
  put(book, "::: {.when expr=\"" + kHalves +
                "\"}\nAlone.\n:::\n\n"
                "::: {.variants}\nLoose text.\n\n"
                "::: {.otherwise}\nO.\n:::\n"
                "::: {.when expr=\"" +
                kHalves +
                "\"}\nLate.\n:::\n"
                ":::\n\n"
                "::: {.variants}\n:::\n\n"
                "::: {.variants}\n::: {.when}\nNo relation.\n:::\n:::\n\n"
                "::: {.variants}\n::: {.when expr=\"" +
                kHalves +
                "\"}\n# A heading\n:::\n:::\n\n"
                "::: {.variants}\n::: {.otherwise}\n::: box :::\n:::\n:::");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  auto at = [&](const std::string& part, int skip = 0) {
    std::string text = book.read(kChapter);
    size_t pos = text.find(part);
    for (int k = 0; k < skip; ++k) pos = text.find(part, pos + 1);
    return kChapter + ":" + std::to_string(1 + std::count(text.begin(), text.begin() + pos, '\n')) +
           ": error: ";
  };
  for (const std::string& expected :
       {at("::: {.when") + "::: {.when} stands only directly inside a ::: {.variants} div",
        at("Loose text.") + "text inside a ::: {.variants} div but outside its ::: {.when}",
        at("::: {.when", 1) + "::: {.when} after the ::: {.otherwise} of line",
        at("::: {.variants}\n:::") + "this ::: {.variants} div holds no ::: {.when",
        at("::: {.when}\nNo") + "a variant needs its relation",
        at("# A heading") + "a heading inside a ::: {.variants} div",
        at("::: box :::\n:::") + "this directive stands inside a ::: {.variants} div"})
    EXPECT_TRUE(contains(run.printed, expected)) << expected << "\n" << run.printed;
}

TEST(Variants, ABookWithoutVariantsIsUnchanged) {
  // The same chapter with its paragraphs in a variants div's only (chosen) variant differs from
  // it by the fences alone.
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  std::string before = book.outputs()["1-alpha.md"];
  put(book, "::: {.variants}\n::: {.otherwise}\n" + kAnchor + "\n:::\n:::");
  ASSERT_EQ(book.weave().status, 0);
  EXPECT_EQ(book.outputs()["1-alpha.md"],
            before.replace(before.find(kAnchor), kAnchor.size(),
                           "::: {.variants}\n::: {.otherwise}\n" + kAnchor + "\n:::\n:::"));
}

TEST(Variants, TheGpusPageSaysWhichVariantEachGpuGot) {
  FixtureBook book;
  two_gpus(book);
  put(book, kTwoVariants);
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  const std::string page = book.outputs()["gpus.md"];
  const std::string when = std::to_string(line_of(book, "::: {.when"));
  const std::string otherwise = std::to_string(line_of(book, "::: {.otherwise"));
  for (const std::string& part :
       {std::string("## Where the prose follows the record"),
        std::string("| chapter | line | passage | Test GPU `testgpu` | Other GPU `othergpu` |"),
        "| [1](1-alpha.html) | " + std::to_string(line_of(book, "::: {.variants")) +
            " | *More than halved, at ….* | `.when` (line " + when +
            "): *More than halved, at ….* | `.otherwise` (line " + otherwise +
            "): *Less than halved, at ….* |"})
    EXPECT_TRUE(contains(page, part)) << part << "\n" << page;
  // Without variants the page has no such section.
  FixtureBook plain;
  two_gpus(plain);
  ASSERT_EQ(plain.weave_with(woven_for("othergpu")).status, 0);
  EXPECT_FALSE(contains(plain.outputs()["gpus.md"], "follows the record"));
}

TEST(InlineVariants, EachGpuGetsItsOwnWords) {
  FixtureBook book;
  two_gpus(book);
  put(book,
      "The fast one [more than halves]{.when expr=\"" + kHalves +
          "\"}[does not halve]{.otherwise} the time[, at [alpha/v2_fast@2^20 : time]{.m}]{.when "
          "expr=\"" +
          kHalves + "\"}.");
  ASSERT_EQ(book.weave_with(woven_for("")).status, 0);
  std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "The fast one more than halves the time, at [400 µs]{.measured"))
      << alpha;
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha, "The fast one does not halve the time.\n")) << alpha;
}

TEST(InlineVariants, AValueInAnUnchosenSpanIsNotLookedUp) {
  FixtureBook book;
  put(book,
      "It [holds]{.when expr=\"" + kHalves + "\"}[fails at [alpha/v9@1 : time]{.m}]{.otherwise}.");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"], "It holds.\n"));
}

TEST(InlineVariants, ErrorsAtTheirLines) {
  FixtureBook book;
  put(book,
      "A [x]{.when expr=\"alpha/v9@1 : time < 1 s\"}[y]{.otherwise}.\n\n"
      "B [y]{.otherwise} alone.\n\n"
      "C [z]{.when} without a relation.");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  auto at = [&](const std::string& part) {
    return kChapter + ":" + std::to_string(line_of(book, part)) + ": error: ";
  };
  for (const std::string& expected :
       {at("A [x]") + "variant 'alpha/v9@1 : time < 1 s': no result 'alpha/v9@1'",
        at("B [y]") + "a [...]{.otherwise} span stands right after a [...]{.when",
        at("C [z]") + "a variant needs its relation"})
    EXPECT_TRUE(contains(run.printed, expected)) << expected << "\n" << run.printed;
}

TEST(InlineVariants, InsideABlockVariantAndOnTheGpusPage) {
  FixtureBook book;
  two_gpus(book);
  put(book,
      "::: {.variants}\n::: {.when expr=\"" + kHalves +
          "\"}\n"
          "Halved, [well]{.when expr=\"alpha/v2_fast@2^20 : time < 0.3 * alpha/v1_naive@2^20 : "
          "time\"}[barely]{.otherwise}.\n:::\n"
          "::: {.otherwise}\nNot halved.\n:::\n:::");
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  const std::string page = book.outputs()["gpus.md"];
  const std::string inner = std::to_string(line_of(book, "Halved, [well]"));
  const std::string outer = std::to_string(line_of(book, "::: {.variants}"));
  EXPECT_TRUE(contains(page, "| [1](1-alpha.html) | " + inner +
                                 " | inline: *well* | `.otherwise` (line " + inner +
                                 "): *barely* | — (not woven: inside a variant of line " + outer +
                                 " not chosen here) |"))
      << page;
  ASSERT_EQ(book.weave_with(woven_for("")).status, 0);
  EXPECT_TRUE(contains(book.outputs()["1-alpha.md"], "Halved, barely.\n"));
}

TEST(Variants, AClaimInAVariantTheReferenceDoesNotChooseIsNotCheckedThere) {
  FixtureBook book;
  two_gpus(book);
  put(book,
      "::: {.variants}\n::: {.when expr=\"" + kHalves +
          "\"}\nHalved.\n:::\n"
          "::: {.otherwise}\n"
          "::: {.claim expr=\"alpha/v2_fast@2^20 : time > 0.5 * alpha/v1_naive@2^20 : time\"}\n"
          "Not halved here.\n:::\n:::\n:::");
  ASSERT_EQ(book.weave_with(woven_for("othergpu")).status, 0);
  const std::string alpha = book.outputs()["1-alpha.md"];
  EXPECT_TRUE(contains(alpha,
                       "Holds on yours, Other GPU. On the reference GPU, Test GPU, another "
                       "variant of this passage stands here."))
      << alpha;
  for (const auto& claim : nlohmann::json::parse(book.outputs()["claims.json"])["claims"])
    if (claim["text"] == "Not halved here.") EXPECT_FALSE(claim.contains("reference_status"));
}

}  // namespace
}  // namespace weave
