// A woven chapter's report: what it leaves unmeasured, unrun on this GPU, broken or stale. Each
// is a warning while the book is written, an error for a strict build (an unrun result only on
// the reference GPU, whose book would lack it).
#pragma once
#include <string>
#include <vector>

#include "chapter_pass.h"

namespace weave {

struct ChapterFindings {
  const std::string& file;  // chapters/3.1-reduction.md
  const FrontMatter& fm;
  const Record* record;  // its record on this GPU, or null
  const ChapterOutput& out;
  const std::vector<int>& unmeasured_lines;  // of the values woven as 'not yet measured'
  const std::vector<int>& not_run_lines;     // of those skipped or failed on this GPU
};

void report_chapter(const ChapterFindings& findings, const BookContext& book,
                    Diagnostics& diagnostics);

}  // namespace weave
