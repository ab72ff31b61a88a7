// The block structure of a chapter's body as cmark reads it (the CommonMark parser the tangler
// reads chapters with), one role per source line. The weaver copies code untouched and weaves
// the rest, so what is code must be what Markdown says is code: a fence indented in a list item,
// an indented block, an HTML comment (tools.md O4), and a fence's end found by the parser, not by
// guessing from line shapes. Pandoc's ::: divs are no CommonMark: cmark reads their fence lines
// as text of paragraphs, where div_lines.h finds them.
#pragma once
#include <string>
#include <vector>

#include "div_lines.h"

namespace weave {

enum class LineRole {
  text,     // prose, a blank line, a ::: div or directive line, a line of an HTML block
  code,     // a line of a code block (fenced, fences included, or indented) or an HTML comment
  heading,  // a top-level ATX heading (# Title). A setext heading stays text: cmark would count
            // a ::: line just above its underline as part of its title
};

struct FenceBlock {
  int open_line = 0;  // 1-based, in the chapter
  std::string fence;  // the opening run: ```, ~~~~, ...
  bool closed = false;
};

// An inline code span, its backticks included: from (line, column) to (end_line, end_column),
// 1-based, inclusive, in bytes. Its text is never woven (SYNTAX.md), and it ends every bracket
// open before it; cmark knows what a line scan did not: a backslash-escaped backtick opens none,
// an unmatched run is text.
struct CodeSpan {
  int line = 0, column = 0, end_line = 0, end_column = 0;
};

struct Blocks {
  std::vector<LineRole> roles;       // one per chapter line; the front matter's lines are text
  std::vector<FenceBlock> fences;    // in order
  std::vector<CodeSpan> code_spans;  // in order
  std::vector<DivLine> div_lines;    // where a ::: fence may be, in order
  bool has_heading = false;          // a top-level heading in the body
};

// `lines` is the whole chapter; the body starts at line `body_line` (1-based: after the front
// matter), and only the body is given to cmark (a front matter's "title: x" over its closing
// "---" would read as a setext heading).
Blocks read_blocks(const std::vector<std::string>& lines, int body_line);

// The code spans of a paragraph (its lines joined by '\n', the first at `first_line`) as offsets
// into it, [begin, end), in order: those of `spans` that fall in it, cut at its ends.
std::vector<std::pair<size_t, size_t>> code_ranges(const std::vector<CodeSpan>& spans,
                                                   const std::string& paragraph, int first_line);

}  // namespace weave
