#include "tangler.h"

#include <algorithm>

#include "book_index.h"
#include "markdown_reader.h"
#include "references.h"

namespace tangle {

namespace {

std::vector<std::string> names_of(const std::vector<Chapter>& chapters) {
  std::vector<std::string> names;
  for (const Chapter& chapter : chapters) names.push_back(chapter.name);
  return names;
}

}  // namespace

Tangling tangle_chapters(const std::vector<Chapter>& chapters, const ExpandLimits& limits) {
  Tangling tangling;
  Diagnostics& diagnostics = tangling.diagnostics;
  BookIndex index = index_book(chapters, diagnostics);
  check_references(index, diagnostics);
  if (diagnostics.empty()) {
    // The visits are a budget for the whole run, not for each file: a thousand files that each
    // include one fan-out must not cost a thousand times the cap.
    size_t visits = 0;
    for (const std::string& path : index.file_order) {
      ExpandedFile file = expand_file(path, index, limits, diagnostics, visits);
      visits = file.visits;
      tangling.files.push_back({path, std::move(file.content), std::move(file.chapters),
                                index.files.at(path).front()->fence_line});
      if (visits > limits.max_visits) break;  // spent: said for this file
    }
  }
  if (!diagnostics.empty()) tangling.files.clear();
  sort_in_book_order(diagnostics, names_of(chapters));
  return tangling;
}

Tangling tangle_texts(const std::vector<ChapterText>& texts, const ExpandLimits& limits) {
  std::vector<Chapter> chapters;
  Diagnostics diagnostics, warnings;
  for (const ChapterText& text : texts) {
    ChapterReading reading = read_chapter(text.name, text.text);
    chapters.push_back(std::move(reading.chapter));
    diagnostics.insert(diagnostics.end(), reading.diagnostics.begin(), reading.diagnostics.end());
    warnings.insert(warnings.end(), reading.warnings.begin(), reading.warnings.end());
  }
  Tangling tangling = tangle_chapters(chapters, limits);
  Diagnostics shared = cross_chapter_chunks(chapters);
  warnings.insert(warnings.end(), shared.begin(), shared.end());
  tangling.warnings = std::move(warnings);
  if (!diagnostics.empty()) {
    tangling.files.clear();
    diagnostics.insert(diagnostics.end(), tangling.diagnostics.begin(), tangling.diagnostics.end());
    sort_in_book_order(diagnostics, names_of(chapters));
    tangling.diagnostics = std::move(diagnostics);
  }
  return tangling;
}

}  // namespace tangle
