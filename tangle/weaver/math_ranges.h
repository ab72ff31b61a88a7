// Where a paragraph holds TeX maths, as Pandoc's tex_math_dollars reads it: $$...$$ is display
// maths; $...$ is inline maths when the opening $ has a non-space to its right and the closing $
// a non-space to its left and no digit after it ($20 and $30 are text); \$ is a dollar. A woven
// value cannot stand there: Pandoc would not read the span and would print the maths as TeX.
#pragma once
#include <string>

#include "spans.h"  // CodeRanges

namespace weave {

// Offsets [begin, end) of the maths in `text`, in order, outside its inline code `code` (a
// code span that opens first is not maths; maths that opens first runs over a code span).
CodeRanges math_ranges(const std::string& text, const CodeRanges& code);

}  // namespace weave

namespace weave {

// Offsets [begin, end) of the destinations of the links and images in `text`: what stands between
// "](" and its ")" (parentheses balanced, backslash-escaped ones skipped, a blank line ending it).
// A woven value cannot stand there either: Pandoc would put the span's Markdown into the URL
// (tools.md WV06). `closes` is closing_brackets(text): only a "]" that closes a "[" ends a text.
CodeRanges link_destinations(const std::string& text, const std::vector<size_t>& closes);

}  // namespace weave
