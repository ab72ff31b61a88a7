// libFuzzer harness over the weaver's input-facing passes, in memory (no file is read but the
// fixture's symbols, once): arbitrary bytes split at form feeds into a chapter, its record
// (<id>.json) and machine.json, then read as weave_book reads them (UTF-8 check, front matter,
// records, the chapter pass, rooflines, the JSON reports). Beyond "no crash, no sanitizer report,
// no exception", it checks what must hold for any input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "chapter_pass.h"
#include "reports.h"
#include "roofline_figure.h"
#include "utf8.h"

namespace {

// Aborts (a crash libFuzzer saves) naming what did not hold.
#define require(holds)                                                                    \
  do {                                                                                    \
    if (!(holds)) {                                                                       \
      std::fprintf(stderr, "fuzz_weave: %s does not hold (line %d)\n", #holds, __LINE__); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lines.empty() && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

const weave::SymbolTable& symbols() {
  static const weave::SymbolTable table = [] {
    weave::Diagnostics ignored;
    return weave::SymbolTable::read(WEAVE_FIXTURES "/book/book/symbols.json", "book/symbols.json",
                                    ignored);
  }();
  return table;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> parts;
  for (size_t pos = 0;;) {
    size_t cut = input.find('\f', pos);
    parts.push_back(input.substr(pos, cut == std::string::npos ? std::string::npos : cut - pos));
    if (cut == std::string::npos) break;
    pos = cut + 1;
  }
  weave::Diagnostics diagnostics;
  const std::string path = "chapters/1-fuzz.md";
  weave::Chapter chapter{path, "1-fuzz", lines_of(parts[0]), {}};
  weave::check_utf8_lines(chapter.lines, path, diagnostics);
  chapter.fm = weave::read_front_matter(chapter.lines, path, diagnostics);
  const std::string id = chapter.fm.id.empty() ? "1" : chapter.fm.id;

  weave::MeasurementStore store;
  store.folder = "book/measurements/fuzz";
  store.slug = "fuzz";
  if (parts.size() > 1)
    weave::add_measurement_file(store, id, parts[1], store.folder + "/" + id + ".json",
                                diagnostics);
  if (parts.size() > 2)
    weave::add_measurement_file(store, "machine", parts[2], store.folder + "/machine.json",
                                diagnostics);
  for (const auto& [key, record] : store.records) require(key == id);

  weave::Manifest manifest;
  weave::BookContext book;
  book.root = "/nonexistent-fuzz-root";
  book.store = &store;
  book.symbols = &symbols();
  book.manifest = &manifest;
  book.strict = !parts[0].empty() && parts[0][0] == 's';
  book.chapters_by_id[id] = &chapter;
  if (!chapter.fm.src.empty()) book.chapter_of_src[chapter.fm.src] = id;
  for (const weave::Named& s : chapter.fm.symbols)
    book.symbol_users[s.name].emplace_back(id, chapter.basename);
  for (auto& [key, record] : store.records) record.stale = weave::is_stale(chapter, record, book);

  std::vector<weave::WovenChapter> woven{
      {&chapter, weave::weave_chapter(chapter, book, diagnostics)}};
  for (const weave::Diagnostic& d : diagnostics.errors()) {
    require(!d.file.empty() && d.line >= 0);
    require(d.message.find('\n') == std::string::npos);
  }
  if (diagnostics.has_errors()) return 0;

  // What weave_book writes when there is no error: all of it must be valid UTF-8 and JSON.
  const weave::ChapterOutput& out = woven.front().output;
  require(weave::invalid_utf8_at(out.markdown) == std::string::npos);
  // As weave_book does: the chapter's figures (its own and named ones), then the book's.
  std::vector<std::string> shown;
  for (const std::string& f : out.figures)
    if (f == id || f.rfind(id + "-", 0) == 0) shown.push_back(f);
  std::vector<weave::RooflineChapter> points{
      {id, chapter.fm.title, chapter.basename, out.kernels, shown}};
  weave::Roofs roofs = weave::read_roofs(store);
  std::map<std::string, std::vector<weave::PlacedPoint>> placed;
  for (const auto& [figure, kernels] : weave::by_figure(out.kernels))
    placed[figure] = weave::place_points(id, kernels, roofs, 1);
  placed["book"] = weave::place_points(id, weave::book_kernels(points.front()), roofs, 1);
  std::string markdown =
      out.figures.empty() ? out.markdown : weave::annotate_figures(out.markdown, placed, roofs);
  require(weave::invalid_utf8_at(markdown) == std::string::npos);
  std::string reports =
      weave::book_json(woven, store, book).dump(2) + weave::claims_json(woven).dump(2) +
      weave::claims_markdown(woven, store) + weave::symbols_json(woven, book).dump(2) +
      weave::roofline_inputs(points, store, out.figures.count("book") > 0).dump(2);
  require(!reports.empty());
  return 0;
}
