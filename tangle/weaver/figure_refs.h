// ![caption](roofline:TARGET) in a chapter: the figure it names, checked against the book.
// roofline:ID draws chapter ID's kernels, roofline:ID/NAME those it lists with figure: NAME, and
// roofline:book every chapter's; each must exist, and have ceilings to be drawn under.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "chapter_pass.h"

namespace weave {

struct SourceLine {
  const std::string& file;  // chapters/3.1-reduction.md
  int line;
};

// The figure's path (figures/roofline-ID.svg, its ID added to `figures`); kUnmeasuredFigure while
// there are no ceilings to draw it under (its line added to `unmeasured_lines`); "" on an error,
// said at `at`.
std::string figure_path(const std::string& target, SourceLine at, const BookContext& book,
                        Diagnostics& diagnostics, std::set<std::string>& figures,
                        std::vector<int>& unmeasured_lines);

}  // namespace weave
