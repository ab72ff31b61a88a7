// The block pass: which chapter lines cmark reads as code, fences and headings, by line.
#include "blocks.h"

#include <gtest/gtest.h>

#include <chrono>

namespace weave {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

// The roles as one letter a line: t text, c code, h heading.
std::string roles(const Blocks& blocks) {
  std::string out;
  for (LineRole r : blocks.roles)
    out += r == LineRole::text ? 't' : r == LineRole::code ? 'c' : 'h';
  return out;
}

Blocks read(const std::string& text, int body_line = 1) {
  return read_blocks(lines_of(text), body_line);
}

TEST(Blocks, AFencedBlockIsCodeFromFenceToFence) {
  Blocks b = read("Prose.\n```{.cuda}\n[a]{.m}\n```\nMore.\n");
  EXPECT_EQ(roles(b), "tccct");
  ASSERT_EQ(b.fences.size(), 1u);
  EXPECT_EQ(b.fences[0].open_line, 2);
  EXPECT_EQ(b.fences[0].fence, "```");
  EXPECT_TRUE(b.fences[0].closed);
}

TEST(Blocks, ALongerFenceIsClosedOnlyByAsLongAFence) {
  Blocks b = read("~~~~\n~~~\n```\n~~~~~ \nAfter.\n");
  EXPECT_EQ(roles(b), "cccct");
  ASSERT_EQ(b.fences.size(), 1u);
  EXPECT_EQ(b.fences[0].fence, "~~~~");
  EXPECT_TRUE(b.fences[0].closed);
}

TEST(Blocks, AFenceNeverClosedIsSaid) {
  Blocks b = read("Text.\n\n```\ncode\n\n");
  EXPECT_EQ(roles(b), "ttccc");
  ASSERT_EQ(b.fences.size(), 1u);
  EXPECT_FALSE(b.fences[0].closed);
}

// cmark ends a fence at the end of its block quote or list item, as Pandoc does: not closed.
TEST(Blocks, AFenceEndsWithItsContainer) {
  Blocks b = read("> ```\n> code\n\nAfter.\n");
  EXPECT_EQ(roles(b), "ccct");  // cmark counts the blank line in
  ASSERT_EQ(b.fences.size(), 1u);
  EXPECT_FALSE(b.fences[0].closed);
  Blocks closed = read("> ```\n> code\n> ```\n\nAfter.\n");
  ASSERT_EQ(closed.fences.size(), 1u);
  EXPECT_TRUE(closed.fences[0].closed);
}

// Four spaces into a list item, a fence is still a fence (a line shape at most three spaces in
// did not see it).
TEST(Blocks, AFenceInAListItem) {
  Blocks b = read("- Item:\n\n    ```\n    [a]{.m}\n    ```\n");
  EXPECT_EQ(roles(b), "ttccc");
  ASSERT_EQ(b.fences.size(), 1u);
  EXPECT_TRUE(b.fences[0].closed);
}

TEST(Blocks, AnIndentedBlockIsCodeWithoutAFence) {
  Blocks b = read("Text.\n\n    ```x\n    [a]{.m}\n\nAfter.\n");
  EXPECT_EQ(roles(b), "ttccct");  // the blank line after it too
  EXPECT_TRUE(b.fences.empty());
}

TEST(Blocks, AnHtmlCommentIsCodeToItsEnd) {
  Blocks b = read("<!-- [a]{.m}\n```\n-->\nAfter.\n");
  EXPECT_EQ(roles(b), "ccct");
  EXPECT_TRUE(b.fences.empty());  // the ``` inside the comment opens nothing
  EXPECT_EQ(roles(read("<div>\n[a]{.m}\n</div>\n")), "ttt");  // other HTML is woven
}

TEST(Blocks, TopLevelAtxHeadingsOnly) {
  Blocks b = read("# Title\n\n> # Quoted\n\n- # Listed\n\nSetext\n---\n");
  EXPECT_EQ(roles(b), "httttttt");
  EXPECT_TRUE(b.has_heading);
  EXPECT_FALSE(read("Prose only.\n").has_heading);
}

// The front matter's closing --- is no setext underline: cmark reads the body only.
TEST(Blocks, TheFrontMatterIsNotRead) {
  Blocks b = read("---\ntitle: x\n---\nBody.\n", 4);
  EXPECT_EQ(roles(b), "tttt");
  EXPECT_FALSE(b.has_heading);
  Blocks code = read("---\nid: x\n---\n```\nc\n```\n", 4);
  EXPECT_EQ(roles(code), "tttccc");
  ASSERT_EQ(code.fences.size(), 1u);
  EXPECT_EQ(code.fences[0].open_line, 4);
}

TEST(Blocks, DivLinesAreText) {
  EXPECT_EQ(roles(read("::: {.claim expr=\"a < b\"}\nText.\n:::\n::: box :::\n")), "tttt");
}

TEST(Blocks, CodeSpansWithTheirBackticks) {
  Blocks b = read("x `` ` `` y\n`a\nb` [e]{.m}\n\\`no` `c`\n");
  ASSERT_EQ(b.code_spans.size(), 3u);
  auto is = [](const CodeSpan& s, int line, int column, int end_line, int end_column) {
    return s.line == line && s.column == column && s.end_line == end_line &&
           s.end_column == end_column;
  };
  EXPECT_TRUE(is(b.code_spans[0], 1, 3, 1, 9));
  EXPECT_TRUE(is(b.code_spans[1], 2, 1, 3, 2));  // over a line break
  EXPECT_TRUE(is(b.code_spans[2], 4, 5, 4, 7));  // "\`" opens none: "` `" is the span
  EXPECT_EQ(roles(b), "tttt");
}

TEST(Blocks, CodeRangesInAParagraph) {
  const std::vector<CodeSpan> spans = {{1, 1, 1, 3}, {3, 2, 4, 1}, {4, 4, 4, 6}, {9, 1, 9, 3}};
  const std::string paragraph = "ab `c`\nd `e";  // lines 4 and 5 of its chapter
  using Ranges = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(code_ranges(spans, paragraph, 4), (Ranges{{0, 1}, {3, 6}}));  // the first cut
  EXPECT_TRUE(code_ranges(spans, paragraph, 10).empty());
}

// cmark is linear: the lines that crashed std::regex (tools.md C1) are read in milliseconds.
TEST(Blocks, LongLinesAreReadInLinearTime) {
  const std::string long_line(1 << 20, 'x');
  auto start = std::chrono::steady_clock::now();
  Blocks b = read("# " + long_line + "\n```" + long_line + "\n" + std::string(80000, ' ') +
                  "\n```\n::: {" + long_line + "}\n");
  EXPECT_EQ(roles(b), "hccct");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

}  // namespace
}  // namespace weave
