#include "weave.h"

#include <algorithm>
#include <fstream>

#include "chapter_pass.h"
#include "file_reading.h"
#include "format.h"
#include "gpus_page.h"
#include "output.h"
#include "reports.h"
#include "roofline_figure.h"
#include "roofline_reference.h"
#include "told.h"
#include "utf8.h"
#include "variants_page.h"

namespace weave {
namespace fs = std::filesystem;
namespace {

fs::path under(const fs::path& root, const fs::path& p) { return p.is_absolute() ? p : root / p; }

std::optional<std::vector<std::string>> read_lines(const fs::path& path, std::string& why) {
  auto bytes = read_regular_file(path, why);
  if (!bytes) return std::nullopt;
  return split_lines(*bytes);
}

// book/chapters.txt: one chapter path a line, '#' comments; each chapter read with its front
// matter.
std::vector<Chapter> read_chapters(const Options& o, Diagnostics& diagnostics) {
  std::vector<Chapter> chapters;
  std::string why;
  auto list = read_lines(under(o.root, o.book), why);
  if (!list) {
    diagnostics.error(o.book.string(), 0, why + ": it lists the chapters in book order");
    return chapters;
  }
  std::map<std::string, int> id_line;
  std::map<std::string, int> basename_line;  // chapter file name -> its line in the list
  std::vector<std::string> paths = *list;
  check_utf8_lines(paths, o.book.string(), diagnostics);
  for (size_t i = 0; i < list->size(); ++i) {
    if (paths[i] != (*list)[i])
      continue;  // not UTF-8: said above, and no file has the repaired name
    std::string path = (*list)[i];
    path = path.substr(0, path.find('#'));
    while (!path.empty() && std::isspace(static_cast<unsigned char>(path.back()))) path.pop_back();
    if (path.empty()) continue;
    std::error_code ignored;  // a chapter is part of the book: under its root, links followed
    fs::path inside = fs::weakly_canonical(under(o.root, path), ignored)
                          .lexically_relative(fs::weakly_canonical(o.root, ignored));
    if (fs::path(path).is_absolute() || inside.empty() || *inside.begin() == "..") {
      diagnostics.error(o.book.string(), static_cast<int>(i) + 1,
                        path +
                            " is outside the book's root: a chapter is a path under it, such as "
                            "chapters/3.1-reduction.md");
      continue;
    }
    auto lines = read_lines(under(o.root, path), why);
    if (!lines) {
      diagnostics.error(o.book.string(), static_cast<int>(i) + 1,
                        path + " " + why + ": write it, or remove this line");
      continue;
    }
    // A chapter is woven to <its file name>.md: two of one name, or one named as a page the
    // weaver writes itself, would overwrite each other (tools.md O5).
    const std::string basename = fs::path(path).stem().string();
    const int line = static_cast<int>(i) + 1;
    if (basename == "claims" || basename == kGpusPageBasename) {
      diagnostics.error(o.book.string(), line,
                        path + ": the file name " + basename +
                            ".md is the weaver's own page: rename the chapter");
      continue;
    }
    if (auto [it, fresh] = basename_line.emplace(basename, line); !fresh) {
      diagnostics.error(o.book.string(), line,
                        path + " has the file name of the chapter on line " +
                            std::to_string(it->second) + ": both would be woven to " + basename +
                            ".md; rename one");
      continue;
    }
    check_utf8_lines(*lines, path, diagnostics);  // before the front matter: a title is a line too
    Chapter c{path, basename, *lines, {}};
    c.fm = read_front_matter(c.lines, path, diagnostics);
    if (c.fm.id.empty())
      diagnostics.error(path, 1, "the front matter needs an id: (id: \"3.1\")");
    else if (id_line.count(c.fm.id))
      diagnostics.error(path, 1, "the id \"" + c.fm.id + "\" is already used by another chapter");
    id_line[c.fm.id] = static_cast<int>(i) + 1;
    chapters.push_back(std::move(c));
  }
  return chapters;
}

// --out must not hold an input of the weave, nor lie inside the records or src/ (tools.md
// WV01-WV03: --out chapters replaced every chapter by its woven text, --out book replaced
// book/symbols.json, --out book/measurements/<gpu> put 24 woven files among the records). Links
// are resolved first: a folder reached through one is the folder it names.
void check_out_folder(const Options& o, const std::vector<Chapter>& chapters,
                      Diagnostics& diagnostics) {
  std::error_code ignored;
  auto real = [&](const fs::path& p) { return fs::weakly_canonical(under(o.root, p), ignored); };
  auto within = [](const fs::path& p, const fs::path& folder) {  // p is folder, or under it
    const fs::path relative = p.lexically_relative(folder);
    return !relative.empty() && *relative.begin() != "..";
  };
  struct Input {
    fs::path path;
    std::string what;
    bool folder;  // a folder the weaver reads whole: --out may not lie inside it either
  };
  std::vector<Input> inputs = {{o.measurements, "the measurement records", true},
                               {"src", "the tangled code", true},
                               {o.book, "the chapter list", false},
                               {o.symbols, "the book's symbols", false}};
  for (const Chapter& c : chapters) inputs.push_back({c.path, "the chapter", false});
  const fs::path out = real(o.out);
  std::vector<const Input*> held;
  const Input* around = nullptr;
  for (const Input& input : inputs) {
    const fs::path path = real(input.path);
    if (within(path, out))
      held.push_back(&input);
    else if (input.folder && !around && within(out, path))
      around = &input;
  }
  const std::string advice =
      ": the weaver would write its woven files over its own inputs; give a folder of its own, "
      "such as build/book/woven";
  if (!held.empty()) {
    std::string others;
    if (held.size() > 1)
      others = " and " + std::to_string(held.size() - 1) + " other input(s) of the weave";
    diagnostics.error(
        "--out " + o.out.string(), 0,
        "holds " + held.front()->what + " " + held.front()->path.string() + others + advice);
  } else if (around) {
    diagnostics.error("--out " + o.out.string(), 0,
                      "lies inside " + around->what + " " + around->path.string() + advice);
  }
}

// A record, or machine.json, whose chapter's code has changed since it was measured is stale: a
// result or ceiling it lacks is then "not yet measured" (the next make measure adds it), not an
// error. machine.json belongs to the chapter whose src is the harness (bench).
void mark_stale_records(MeasurementStore& store, const BookContext& book) {
  for (auto& [id, record] : store.records)
    if (auto chapter = book.chapters_by_id.find(id); chapter != book.chapters_by_id.end())
      record.stale = is_stale(*chapter->second, record, book);
  auto harness = book.chapter_of_src.find("bench");
  if (!store.machine || harness == book.chapter_of_src.end()) return;
  auto chapter = book.chapters_by_id.find(harness->second);
  if (chapter == book.chapters_by_id.end()) return;
  Record as_recorded;
  as_recorded.sources_sha256 = store.machine->sources_sha256;
  if (const Record* record = store.record(harness->second)) as_recorded.sources = record->sources;
  store.machine->stale = is_stale(*chapter->second, as_recorded, book);
}

}  // namespace

std::optional<std::map<std::string, std::string>> weave_book(const Options& o,
                                                             Diagnostics& diagnostics) {
  const size_t errors_before = diagnostics.errors().size();
  std::vector<Chapter> chapters = read_chapters(o, diagnostics);
  // A chapter list or chapter that could not be read is said once: its records are not then
  // "for no chapter" (tools.md P4: a missing --book gave one such error per record).
  const bool every_chapter_read = diagnostics.errors().size() == errors_before;
  check_out_folder(o, chapters, diagnostics);
  MeasurementStore store =
      load_measurements(o.root, o.measurements, o.gpu, diagnostics, o.reference);
  SymbolTable symbols =
      SymbolTable::read(under(o.root, o.symbols), o.symbols.string(), diagnostics);
  Manifest manifest = Manifest::read(o.root);

  BookContext book;
  book.root = o.root;
  book.store = &store;
  book.symbols = &symbols;
  book.manifest = &manifest;
  book.strict = o.strict;
  book.measured_now = o.measured_now;
  for (const Chapter& c : chapters) {
    book.chapters_by_id[c.fm.id] = &c;
    if (!c.fm.src.empty()) book.chapter_of_src[c.fm.src] = c.fm.id;
    for (const Named& s : c.fm.symbols) book.symbol_users[s.name].emplace_back(c.fm.id, c.basename);
  }
  for (const auto& [id, record] : store.records)
    if (every_chapter_read && !book.chapters_by_id.count(id))
      diagnostics.error(record.file, 0,
                        "is a record for chapter \"" + id + "\", but no chapter in " +
                            o.book.string() +
                            " has that id: remove the record or fix the chapter's id");
  mark_stale_records(store, book);
  // The other GPUs' folders: the reference's beside this GPU's, every one on the GPUs page. Their
  // records are read, not judged: a fault in one leaves that GPU out, with a warning.
  std::map<std::string, MeasurementStore> others;
  std::vector<std::string> strays;
  const std::vector<std::string> folders = o.gpu.empty() || !store.folder.empty()
                                               ? gpu_folders(o.root, o.measurements, &strays)
                                               : std::vector<std::string>{};
  for (const std::string& name : strays)  // named without its control characters
    diagnostics.warning(o.measurements.string() + "/" + inert_text(name), 0,
                        "holds records but is no GPU's folder (a GPU's is a folder, not a link, "
                        "named by its slug, such as nvidia-h200): it is left out; remove it");
  for (const std::string& slug : folders) {
    if (slug == store.slug) continue;
    Diagnostics theirs;
    MeasurementStore other = load_measurements(o.root, o.measurements, slug, theirs);
    if (theirs.has_errors()) {
      diagnostics.warning(o.measurements.string() + "/" + slug, 0,
                          "has records the weaver cannot read (" + theirs.errors().front().message +
                              "): this GPU is left out of the comparison");
      continue;
    }
    mark_stale_records(other, book);
    others.emplace(slug, std::move(other));
  }
  book.woven_is_reference = o.reference.empty() || store.slug.empty() || store.slug == o.reference;
  if (auto it = others.find(o.reference); it != others.end()) book.reference = &it->second;
  std::error_code ec;
  if (o.measurements_named && !fs::is_directory(under(o.root, o.measurements), ec)) {
    diagnostics.error(o.measurements.string(), 0,
                      "is not a folder of measurement records: check the --measurements "
                      "path (book/measurements, or one GPU's folder in it)");
    // said once: no chapter's values are then counted as 'not yet measured' (tools.md W37: one
    // such warning per chapter followed the error)
    store.unreadable.push_back(o.measurements.string());
  } else if (store.folder.empty() && store.unreadable.empty())  // not when the folder was refused
    diagnostics.warning(o.measurements.string(), 0,
                        "holds no measurement records: every value renders as 'not yet measured'");
  if (!store.folder.empty() && !store.machine && !store.machine_unreadable)
    diagnostics.warning(
        store.folder, 0,
        "has no machine.json: the ceilings and device properties are not yet measured");

  std::vector<WovenChapter> woven;
  for (const Chapter& c : chapters) woven.push_back({&c, weave_chapter(c, book, diagnostics)});

  std::vector<RooflineChapter> points;
  std::set<std::string> figures;
  for (const auto& w : woven) figures.insert(w.output.figures.begin(), w.output.figures.end());
  for (const auto& w : woven) {
    const std::string& id = w.chapter->fm.id;
    std::vector<std::string> shown;  // its figures some chapter shows: ID and ID-NAME
    for (const std::string& f : figures)
      if (f == id || f.rfind(id + "-", 0) == 0) shown.push_back(f);
    points.push_back({id, w.chapter->fm.title, w.chapter->basename, w.output.kernels, shown});
  }

  if (diagnostics.has_errors()) return std::nullopt;
  // Each roofline figure gets its alt text, its key table and, where counted, its levels figure.
  Roofs roofs = read_roofs(store);
  std::map<std::string, std::vector<PlacedPoint>> placed;
  for (const auto& c : points) {
    for (const auto& [figure, kernels] : by_figure(c.kernels))
      placed[figure] = place_points(c.id, kernels, roofs, 1);
    auto book_points =
        place_points(c.id, book_kernels(c), roofs, static_cast<int>(placed["book"].size()) + 1);
    placed["book"].insert(placed["book"].end(), book_points.begin(), book_points.end());
  }
  // Woven for another GPU, each roofline draws the reference's roofs and last rungs beside.
  std::optional<ReferenceSide> reference;
  if (book.reference && book.reference->machine && store.machine) {
    std::vector<RooflineChapter> theirs = points;
    for (size_t i = 0; i < woven.size(); ++i) theirs[i].kernels = woven[i].output.reference_kernels;
    reference = reference_side(theirs, placed, *book.reference, store);
  }
  const ReferenceSide* beside = reference ? &*reference : nullptr;
  std::map<std::string, std::string> files;
  for (const auto& w : woven)
    files[w.chapter->basename + ".md"] =
        w.output.figures.empty() ? w.output.markdown
                                 : annotate_figures(w.output.markdown, placed, roofs, beside);
  nlohmann::json book_index = book_json(woven, store, book);
  if (!others.empty()) {  // several GPUs: the page that sets them side by side
    std::vector<GpuColumn> columns = {{store.slug, &store}};
    for (const auto& [slug, other] : others) columns.push_back({slug, &other});
    std::vector<const Chapter*> in_order;
    for (const auto& w : woven) in_order.push_back(w.chapter);
    files[std::string(kGpusPageBasename) + ".md"] =
        gpus_page(in_order, columns, store.slug, o.reference, book);
    std::stable_sort(columns.begin(), columns.end(), [&](const GpuColumn& a, const GpuColumn& b) {
      return (a.slug == o.reference) > (b.slug == o.reference);  // the page's order
    });
    files[std::string(kGpusPageBasename) + ".md"] +=
        told_section(woven, store) + variants_section(woven, columns, book);
    book_index["chapters"].push_back({{"id", kGpusPageId},
                                      {"title", kGpusPageTitle},
                                      {"basename", kGpusPageBasename},
                                      {"src", ""},
                                      {"source", nullptr},
                                      {"woven", std::string(kGpusPageBasename) + ".md"},
                                      {"stale", false},
                                      {"measured", nullptr},
                                      {"gpu", nullptr},
                                      {"figures", nlohmann::json::array()}});
  }
  files["book.json"] = book_index.dump(2) + "\n";
  files["claims.json"] = claims_json(woven).dump(2) + "\n";
  files["claims.md"] = claims_markdown(woven, store);
  files["symbols.json"] = symbols_json(woven, book).dump(2) + "\n";
  files["roofline-inputs.json"] =
      roofline_inputs(points, store, figures.count("book") > 0, beside).dump(2) + "\n";
  return files;
}

int run(const Options& options, Diagnostics& diagnostics) {
  auto files = weave_book(options, diagnostics);
  if (!files) return 2;
  if (!write_outputs(under(options.root, options.out), *files, diagnostics)) return 2;
  // A GPUs page of an earlier weave with several GPUs' folders is no part of this book: removed,
  // so the folder holds this weave's files only.
  const std::string page = std::string(kGpusPageBasename) + ".md";
  std::error_code ignored;
  if (!files->count(page)) fs::remove(under(options.root, options.out) / page, ignored);
  return 0;
}

}  // namespace weave
