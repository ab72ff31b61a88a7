// Inline weaving: values become titled spans, inline code is left alone, spans may wrap, and a
// malformed span is an error on its own line.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <random>

#include "fixture.h"
#include "math_ranges.h"
#include "spans.h"

namespace weave {
namespace {

class Spans : public ::testing::Test {
 protected:
  Spans()
      : store(load_measurements(book.root(), "book/measurements/testgpu", "", diagnostics)),
        scope(store, "1", chapters) {
    context.file = "c.md";
    context.scope = &scope;
    context.diagnostics = &diagnostics;
  }
  std::string weave(const std::string& text, int line = 10) {
    return weave_inline(text, line, context);
  }

  testing::FixtureBook book;
  Diagnostics diagnostics;
  MeasurementStore store;
  std::map<std::string, std::string> chapters = {{"beta", "2"}};
  Scope scope;
  InlineContext context;
};

TEST_F(Spans, AValueBecomesATitledSpan) {
  EXPECT_EQ(weave("It takes [alpha/v1_naive@2^20 : time]{.m}."),
            "It takes [1.00 ms]{.measured title=\"alpha/v1_naive@1048576 : time, median of 10, "
            "spread 3.0%\"}.");
  EXPECT_EQ(weave("[machine : copy_bandwidth]{.m fmt=\"GB/s\" digits=2}"),
            "[4000 GB/s]{.measured title=\"machine : copy_bandwidth, median of 10, spread 5.1%\"}");
  EXPECT_FALSE(diagnostics.has_errors());
}

TEST_F(Spans, InlineCodeAndOtherSpansAreLeftAlone) {
  std::string text = "Write `[a/b@1 : time]{.m}` and [a link](x.html) and [small]{.smallcaps}.";
  EXPECT_EQ(weave(text), text);
  EXPECT_FALSE(diagnostics.has_errors());
}

TEST_F(Spans, ASpanMayWrapAndErrorsNameItsLine) {
  std::string out = weave(
      "first line\nthen [machine :\ncopy_bandwidth]{.m\nfmt=\"TB/s\"} and [alpha/nothing@1 : "
      "time]{.m}",
      20);
  EXPECT_NE(out.find("[4.00 TB/s]"), std::string::npos);
  ASSERT_EQ(diagnostics.errors().size(), 1u);
  EXPECT_EQ(diagnostics.errors()[0].line, 23);
  EXPECT_NE(diagnostics.errors()[0].message.find("no result 'alpha/nothing@1'"), std::string::npos);
}

TEST_F(Spans, MalformedSpans) {
  weave("an unclosed [machine : sm_count]{.m fmt=\"%\"");
  weave("a missing bracket machine : sm_count]{.m}", 11);
  weave("[machine : sm_count]{.m colour=\"red\"}", 12);
  weave("[machine : sm_count +]{.m}", 13);
  weave("[machine : copy_bandwidth]{.m fmt=\"%\"}", 14);
  ASSERT_EQ(diagnostics.errors().size(), 5u);
  EXPECT_NE(diagnostics.errors()[0].message.find("malformed"), std::string::npos);
  EXPECT_NE(diagnostics.errors()[1].message.find("malformed"), std::string::npos);
  EXPECT_NE(diagnostics.errors()[2].message.find("unknown attribute colour"), std::string::npos);
  EXPECT_EQ(diagnostics.errors()[3].line, 13);
  EXPECT_NE(diagnostics.errors()[4].message.find("needs a ratio"), std::string::npos);
}

TEST_F(Spans, AValueInsideMathsIsAnErrorAtItsLine) {
  // Chapter 4.3b had one: Pandoc printed the display maths as raw TeX, exit 0.
  std::string text = "$$t \\approx\n[machine : sm_count]{.m}.$$";
  EXPECT_EQ(weave(text, 30), text);
  weave("inline $x = [machine : sm_count]{.m}$ too", 40);
  ASSERT_EQ(diagnostics.errors().size(), 2u);
  EXPECT_EQ(diagnostics.errors()[0].line, 31);
  EXPECT_NE(diagnostics.errors()[0].message.find("inside TeX maths"), std::string::npos);
  EXPECT_EQ(diagnostics.errors()[1].line, 40);
}

TEST_F(Spans, ValuesBesideMathsAndDollarsThatAreNotMathsAreWoven) {
  for (const std::string text :
       {"$x$ is [machine : sm_count]{.m}", "$$x$$ [machine : sm_count]{.m} $y$",
        "costs $20 and [machine : sm_count]{.m} and $30", "a \\$ then [machine : sm_count]{.m} $",
        "`$` [machine : sm_count]{.m} `$`", "$ x [machine : sm_count]{.m} x $"}) {
    EXPECT_NE(weave(text).find(".measured"), std::string::npos) << text;
  }
  EXPECT_FALSE(diagnostics.has_errors());
}

TEST(MathRanges, PandocsDollarRules) {
  const CodeRanges none;
  EXPECT_EQ(math_ranges("a $x$ b $$y$$ c", none), (CodeRanges{{2, 5}, {8, 13}}));
  EXPECT_TRUE(math_ranges("$20 and $30", none).empty());  // a closing $ before a digit
  EXPECT_TRUE(math_ranges("$ x$", none).empty());         // a space after the opening
  EXPECT_TRUE(math_ranges("$x $", none).empty());         // a space before the closing
  EXPECT_TRUE(math_ranges("\\$x$", none).size() == 0u);   // an escaped dollar opens nothing
  EXPECT_TRUE(math_ranges("`$x$`", CodeRanges{{0, 5}}).empty());
  // Linear on a megabyte of openings that never close (each would otherwise rescan the rest).
  std::string many;
  for (int i = 0; i < 200000; ++i) many += " $ab";
  const auto start = std::clock();
  EXPECT_TRUE(math_ranges(many, none).empty());
  EXPECT_LT(double(std::clock() - start) / CLOCKS_PER_SEC, 1.0);
}

TEST_F(Spans, UnmeasuredValuesAreMarked) {
  EXPECT_EQ(weave("[beta/v1@1 : time]{.m}").substr(0, 19), "[not yet measured]{");
  EXPECT_EQ(context.unmeasured_lines, std::vector<int>{10});
  EXPECT_FALSE(diagnostics.has_errors());
}

TEST_F(Spans, RooflineReferences) {
  context.figure = [](const std::string& id, int) { return "figures/roofline-" + id + ".svg"; };
  EXPECT_EQ(weave("![The ladder](roofline:3.1)"), "![The ladder](figures/roofline-3.1.svg)");
}

// The one-pass bracket matcher gives what the scan from each '[' it replaced gave (that scan,
// kept here as the reference), on random text of brackets, backslashes, backticks and newlines;
// and 100 000 '[' take a moment, not the 36 s of the scans (tools.md Z7).
size_t scanned_closing_bracket(const std::string& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    if (s[i] == '[') ++depth;
    if (s[i] == ']' && --depth == 0) return i;
    if (s[i] == '`' || s.compare(i, 2, "\n\n") == 0) return std::string::npos;
  }
  return std::string::npos;
}

// Inline code as cmark reads it (blocks.h), not as a backtick scan guessed it: an escaped
// backtick or one that is never closed opens no code, so what follows is woven.
TEST_F(Spans, OnlyCodeSpansAreLeftAsWritten) {
  EXPECT_EQ(weave("`[alpha/v1_naive@2^20 : time]{.m}` stays"),
            "`[alpha/v1_naive@2^20 : time]{.m}` stays");
  EXPECT_EQ(weave("An escaped \\` then [alpha/v1_naive@2^20 : time]{.m}.").find("[1.00 ms]"), 19u);
  EXPECT_NE(weave("One ` alone, then [alpha/v1_naive@2^20 : time]{.m}.").find("[1.00 ms]"),
            std::string::npos);
  EXPECT_EQ(weave("``a ` [b]{.m}`` and [alpha/v1_naive@2^20 : time]{.m}").substr(0, 20),
            "``a ` [b]{.m}`` and ");
  EXPECT_FALSE(diagnostics.has_errors());
}

TEST(Brackets, OnePassMatchesTheScanFromEachBracket) {
  std::mt19937 random(22);
  const std::string alphabet = "[[]]\\`\nab";
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    for (int n = random() % 24; n > 0; --n) text += alphabet[random() % alphabet.size()];
    CodeRanges backticks;  // each unescaped backtick stands for a code span, as in the scan below
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\\')
        ++i;
      else if (text[i] == '`')
        backticks.emplace_back(i, i + 1);
    std::vector<size_t> closes = closing_brackets(text, backticks);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '[')
        ASSERT_EQ(closes[i], scanned_closing_bracket(text, i)) << text << " at " << i;
  }
  auto started = std::chrono::steady_clock::now();
  std::vector<size_t> many = closing_brackets(std::string(100000, '['));
  EXPECT_EQ(many.front(), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(1));
}

}  // namespace
}  // namespace weave
