// The ::: divs: where cmark's tree lets one be (div_lines.h), what Pandoc 2.17 reads there
// (divs.h), and whole chapters with divs in block quotes, list items, code and HTML.
#include "divs.h"

#include <gtest/gtest.h>

#include <ctime>

#include "blocks.h"
#include "fixture.h"

namespace weave {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

// The candidates as "line:prefix:indent:first" (first as f or -), and containers apart.
std::string candidates(const std::string& text) {
  std::string out;
  for (const DivLine& d : read_blocks(lines_of(text), 1).div_lines)
    out += (out.empty() ? "" : " ") + std::to_string(d.line) + ":" + std::to_string(d.prefix) +
           ":" + std::to_string(d.indent) + ":" + (d.first ? "f" : "-");
  return out;
}

TEST(DivLines, AFenceStartsAParagraphOrFollowsAFence) {
  EXPECT_EQ(candidates("::: {.claim expr=\"a < b\"}\nText.\n:::\n\n::: box :::\n"),
            "1:0:0:f 3:0:0:- 5:0:0:f");
  EXPECT_EQ(candidates("::: {.a}\n::: {.b}\nx\n:::\n:::\n"), "1:0:0:f 2:0:0:f 4:0:0:- 5:0:0:f");
  EXPECT_EQ(candidates("Prose.\n::: {.a}\n"), "2:0:0:-");  // Pandoc: the paragraph's text
  // cmark reads a div and a rule under it as a setext heading; Pandoc, as a div and a rule
  EXPECT_EQ(candidates("::: {.a}\nx\n:::\n---\n"), "1:0:0:f 3:0:0:-");
}

// Code, HTML and inline code hold no fence, whatever their lines look like.
TEST(DivLines, NoneInCodeOrHtml) {
  EXPECT_EQ(candidates("```\n::: {.claim expr=\"a < b\"}\n:::\n```\n"), "");
  EXPECT_EQ(candidates("Code:\n\n    ::: {.claim}\n    :::\n"), "");
  EXPECT_EQ(candidates("<div>\n::: {.claim expr=\"a < b\"}\n:::\n</div>\n"), "");
  EXPECT_EQ(candidates("<!--\n::: box :::\n-->\n"), "");
  EXPECT_EQ(candidates("A span `over\n::: {.x}` two lines.\n"), "");
}

TEST(DivLines, InBlockQuotesAndListItems) {
  EXPECT_EQ(candidates("> ::: {.a}\n> x\n> :::\n"), "1:2:0:f 3:2:0:-");
  EXPECT_EQ(candidates("- ::: {.a}\n  x\n  :::\n"), "1:2:0:f 3:2:0:-");
  EXPECT_EQ(candidates("1. Item.\n\n   ::: {.a}\n   x\n   :::\n"), "3:3:0:f 5:3:0:-");
  EXPECT_EQ(candidates("> - Item.\n>\n>   ::: {.a}\n>   :::\n"), "3:4:0:f 4:4:0:f");
  EXPECT_EQ(candidates("> ::: {.a}\n> x\n:::\n"), "1:2:0:f 3:0:0:-");  // a lazy line
  std::vector<DivLine> d = read_blocks(lines_of("::: {.a}\n\n> :::\n\n:::\n"), 1).div_lines;
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].container, d[2].container);
  EXPECT_NE(d[0].container, d[1].container);
}

TEST(DivLines, AnIndentIsMeasured) {
  EXPECT_EQ(candidates("  ::: {.a}\n  x\n   :::\n"), "1:0:2:f 3:0:3:-");
  EXPECT_EQ(candidates(">  ::: {.a}\n"), "1:2:1:f");
  EXPECT_EQ(candidates("- x\n\n   ::: {.a}\n"), "3:2:1:f");
}

// A 1 MB chapter of block quotes nested 500 000 deep is read in linear time; past kMaxDivDepth
// no fence is looked for. (CPU time, not the clock's: a loaded machine doubled the clock's.)
TEST(DivLines, DeepNestingIsBounded) {
  const std::clock_t start = std::clock();
  EXPECT_EQ(
      candidates(std::string(500000, '>') + " ::: {.a}\n" + std::string(500000, '>') + " :::\n"),
      "");
  EXPECT_EQ(candidates(std::string(kMaxDivDepth, '>') + " ::: {.a}\n"),
            "1:" + std::to_string(kMaxDivDepth + 1) + ":0:f");
  EXPECT_LT(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC, 2.0);
}

struct Stack {
  std::string file = "c.md";
  Diagnostics diagnostics;
  DivStack divs{file, diagnostics};
  std::string errors() const {
    std::string out;
    for (const Diagnostic& d : diagnostics.errors())
      out += std::to_string(d.line) + ": " + d.message + "\n";
    return out;
  }
};

TEST(DivStack, KindsOfFences) {
  Stack s;
  auto kind = [&](const std::string& line, bool first = true, size_t indent = 0) {
    return s.divs.kind({7, 0, indent, 0, first}, line);
  };
  EXPECT_EQ(kind("::: box :::"), DivKind::box);
  EXPECT_EQ(kind(":::: symbols-table ::::"), DivKind::symbols_table);
  EXPECT_EQ(kind("::: {.note .claim expr=\"a < b\"}"), DivKind::claim);
  EXPECT_EQ(kind("::: {.claims}"), DivKind::open);
  EXPECT_EQ(kind("::: aside"), DivKind::open);
  EXPECT_EQ(kind(":::: "), DivKind::close);
  EXPECT_EQ(kind(":::", false), DivKind::close);  // a paragraph runs on to it: it still closes
  EXPECT_TRUE(s.errors().empty()) << s.errors();
  EXPECT_EQ(kind("::: {.a}", false), DivKind::text);
  EXPECT_EQ(kind("  :::", true, 2), DivKind::text);
  EXPECT_EQ(s.errors(),
            "7: this ::: line continues the paragraph above it, so Pandoc reads it as text, not "
            "as a div: put a blank line before it\n"
            "7: this ::: is indented 2 space(s), so Pandoc reads it as text, not as a div's "
            "fence: start it at the first column (of its list item's or block quote's text)\n");
}

TEST(DivStack, AFenceClosesADivOfItsOwnContainer) {
  Stack s;
  s.divs.open({1, 0, 0, 0, true}, 5);
  s.divs.open({3, 2, 0, 1, true});  // in a block quote, never closed there
  EXPECT_EQ(s.divs.close({4, 0, 0, 2, true}), std::nullopt);  // another block quote
  EXPECT_EQ(s.divs.close({6, 0, 0, 0, true})->claim, 5);
  EXPECT_EQ(s.divs.close({8, 0, 0, 0, true}), std::nullopt);
  s.divs.open({9, 0, 0, 0, true});
  s.divs.finish();
  EXPECT_EQ(s.errors(),
            "4: this ::: closes a div that was never opened: remove it, or open one with ::: "
            "{.class} (a ::: closes only a div opened in its own block quote or list item)\n"
            "3: this ::: div is never closed: end it with a line ':::'\n"
            "8: this ::: closes a div that was never opened: remove it, or open one with ::: "
            "{.class}\n"
            "9: this ::: div is never closed: end it with a line ':::'\n");
}

using testing::FixtureBook;
const std::string alpha = "chapters/1-alpha.md";
const std::string claim =
    "::: {.claim expr=\"alpha/v2_fast@2^20 : time < 0.5 * "
    "alpha/v1_naive@2^20 : time\"}";

FixtureBook::Run weave_appended(const FixtureBook& b, const std::string& text) {
  b.write(alpha, b.read(alpha) + "\n" + text + "\n");
  return b.weave();
}

// A claim inside a block quote or a list item is one there, as Pandoc reads it: checked, its
// verdict in the same container.
TEST(Divs, AClaimInABlockQuote) {
  FixtureBook b;
  auto run = weave_appended(b, "> " + claim + "\n> Quoted, it still halves the time.\n> :::");
  ASSERT_EQ(run.status, 0) << run.printed;
  const std::string woven = b.read("build/book/woven/1-alpha.md");
  EXPECT_NE(woven.find("> ::: {.claim .claim-holds data-expr="), std::string::npos) << woven;
  EXPECT_NE(woven.find("> Quoted, it still halves the time.\n>\n> <details class=\"claim-verdict\">"
                       "<summary>Holds on Test GPU.</summary>\n>\n> - `"),
            std::string::npos)
      << woven;
  EXPECT_NE(woven.find("\n> </details>\n> :::\n"), std::string::npos) << woven;
  const std::string claims = b.read("build/book/woven/claims.json");  // its prose, no "> "
  EXPECT_NE(claims.find("\"text\": \"Quoted, it still halves the time.\""), std::string::npos)
      << claims;
}

TEST(Divs, AClaimInAListItem) {
  FixtureBook b;
  auto run =
      weave_appended(b, "- An item.\n\n  " + claim + "\n  Listed, it halves the time.\n  :::");
  ASSERT_EQ(run.status, 0) << run.printed;
  const std::string woven = b.read("build/book/woven/1-alpha.md");
  EXPECT_NE(woven.find("\n  ::: {.claim .claim-holds data-expr="), std::string::npos) << woven;
  EXPECT_NE(woven.find("\n  </details>\n  :::\n"), std::string::npos) << woven;
}

// A ::: line or a claim's opening in code or HTML is copied as it is and checks nothing: an
// unknown key there is no error, an unclosed one opens nothing.
TEST(Divs, NoneInCodeOrHtml) {
  const std::string bad = "::: {.claim expr=\"alpha/v9@1 : time < 1\"}";
  for (const std::string& text : {"```\n" + bad + "\n:::\n```", "Code:\n\n    " + bad + "\n    :::",
                                  "<div>\n" + bad + "\n</div>", "<!--\n" + bad + "\n:::\n-->"}) {
    FixtureBook b;
    auto run = weave_appended(b, text);
    EXPECT_EQ(run.status, 0) << text << "\n" << run.printed;
    EXPECT_NE(b.read("build/book/woven/1-alpha.md").find(bad), std::string::npos) << text;
  }
}

// tools.md W41: a claim never closed, a second ::: box :::, and fences Pandoc reads as text.
TEST(Divs, BadFencesAreNamedAtTheirLines) {
  const int end = 43;  // the fixture chapter's last line, before the appended text
  struct Case {
    std::string text, error;
  } cases[] = {
      {claim + "\nNever closed.",
       ":" + std::to_string(end + 2) + ": error: this ::: div is never closed"},
      {"::: box :::", ":" + std::to_string(end + 2) + ": error: a second ::: box :::"},
      {"Prose.\n" + claim + "\nx\n:::",
       ":" + std::to_string(end + 3) + ": error: this ::: line continues"},
      {"  " + claim + "\n  x\n  :::",
       ":" + std::to_string(end + 2) + ": error: this ::: is indented 2"},
      {"> " + claim + "\n> x\n\n:::",
       ":" + std::to_string(end + 5) + ": error: this ::: closes a div that was never opened"},
  };
  for (const Case& c : cases) {
    FixtureBook b;
    const auto before = b.outputs();
    auto run = weave_appended(b, c.text);
    EXPECT_NE(run.status, 0) << c.text;
    EXPECT_NE(run.printed.find(alpha + c.error), std::string::npos) << c.text << "\n"
                                                                    << run.printed;
    EXPECT_EQ(b.outputs(), before);
  }
}

}  // namespace
}  // namespace weave
