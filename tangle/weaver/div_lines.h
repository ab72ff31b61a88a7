// Where a chapter may hold a Pandoc ::: div fence, found in cmark's tree (blocks.h). cmark has no
// divs: it reads a fence line as text of a paragraph. Pandoc 2.17 (the renderer) reads one there
// and nowhere else: not in a code block, an HTML block or an HTML comment, and so neither does
// the weaver. A line of a paragraph is a candidate when its text, past its block quotes' '>' and
// its list items' indent, starts with ":::" (after white space, so that an indented one can be
// named), and no code span or raw HTML of an earlier line runs into it (that line is the span's
// text). Whether it opens, closes or is text, divs.h decides.
#pragma once
#include <string>
#include <vector>

struct cmark_node;

namespace weave {

struct DivLine {
  int line = 0;        // 1-based, in the chapter
  size_t prefix = 0;   // bytes of its containers' marks ("> ", a list item's "- " or indent)
  size_t indent = 0;   // white space between those marks and the ":::" (Pandoc wants none)
  int container = 0;   // its block quote or list item (one number each), 0 the document
  bool first = false;  // the first line of its paragraph, or the line after a candidate fence
};

// Blocks of paragraphs nested deeper than this in block quotes and list items are not searched
// for fences (a 1 MB chapter can nest 500 000 deep; the book nests two).
constexpr int kMaxDivDepth = 64;

// The candidates among the lines of `paragraphs` (cmark paragraph nodes and setext headings,
// whose last line is the underline), in line order. `lines` is the whole chapter; node line n is
// chapter line n + offset. `in_span[i]` says whether a code span or raw HTML that starts on an
// earlier line reaches line i + 1.
std::vector<DivLine> div_lines(const std::vector<cmark_node*>& paragraphs,
                               const std::vector<std::string>& lines, int offset,
                               const std::vector<bool>& in_span);

}  // namespace weave
