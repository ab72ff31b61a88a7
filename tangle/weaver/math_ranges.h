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
