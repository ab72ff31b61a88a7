// Where the book stands on the GPU it is woven for, told to its reader: each chapter's claims
// counted by verdict (for book.json, from which the renderer writes the front page's and each
// chapter's opening lines), and the GPUs page's list of the claims that do not hold, those that
// cannot be checked there, and the chapters whose records are stale.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports.h"

namespace weave {

// A chapter's claims by verdict: {"total", "hold", "broken": [{line, anchor}], "unchecked":
// [{line, anchor, why}]}. Unchecked: a value it needs was never measured, or skipped or failed,
// on this GPU; counted apart from the claims that do not hold.
nlohmann::json chapter_tally(const ChapterOutput& out);

// The GPUs page's section "Broken claims: where the book does not hold on <gpu>" (#does-not-hold):
// the claims that do not hold, each with its chapter, line, words and the values that broke it; the
// claims that cannot be checked and why; the chapters whose records are stale.
std::string told_section(const std::vector<WovenChapter>& chapters, const MeasurementStore& store);

}  // namespace weave
