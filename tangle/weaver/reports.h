// The reports the weaver writes beside the woven chapters, for the renderer and for people:
// book.json (chapter order and state, each chapter's claims by verdict), claims.json and claims.md
// (every claim and its verdict), symbols.json (every symbol with this generation's value and the
// chapters using it).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "chapter_pass.h"

namespace weave {

struct WovenChapter {
  const Chapter* chapter;
  ChapterOutput output;
};

nlohmann::json book_json(const std::vector<WovenChapter>& chapters, const MeasurementStore& store,
                         const BookContext& book);
nlohmann::json claims_json(const std::vector<WovenChapter>& chapters);
std::string claims_markdown(const std::vector<WovenChapter>& chapters,
                            const MeasurementStore& store);
nlohmann::json symbols_json(const std::vector<WovenChapter>& chapters, const BookContext& book);

}  // namespace weave
