#include "run.h"

#include "book_index.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "book_list.h"
#include "check.h"
#include "markdown_reader.h"
#include "output_tree.h"
#include "ownership.h"
#include "read_file.h"
#include "tangler.h"

namespace tangle {

namespace fs = std::filesystem;

namespace {

const char* const kBookList = "book/chapters.txt";

// A chapter named on the command line, as the book names it: relative to the root.
std::string relative_to_root(const fs::path& root, const std::string& argument) {
  fs::path path(argument);
  if (!path.is_absolute()) return path.lexically_normal().generic_string();
  std::error_code error;
  fs::path relative =
      fs::weakly_canonical(path, error).lexically_relative(fs::weakly_canonical(root, error));
  if (error || relative.empty() || *relative.begin() == "..") return argument;
  return relative.generic_string();
}

struct LoadedChapter {
  std::string name;
  std::string text;
};

// The chapters to process, in order, with their text; errors for those that cannot be read.
std::vector<LoadedChapter> load_chapters(const Options& options, Diagnostics& diagnostics) {
  fs::path root(options.root);
  std::vector<ListedChapter> listed;
  std::string listed_in;
  if (!options.chapters.empty()) {
    for (const std::string& argument : options.chapters)
      listed.push_back({relative_to_root(root, argument), 0});
  } else {
    std::optional<std::string> list = read_file(root / kBookList);
    if (!list) {
      diagnostics.push_back({kBookList, 0,
                             "cannot be read under " + options.root +
                                 ": run tangle in the book's root, or pass --root DIR"});
      return {};
    }
    if (list->starts_with("\xEF\xBB\xBF"))
      list->erase(0, 3);  // a byte-order mark: no part of the list
    listed = parse_book_list(*list);
    listed_in = kBookList;
  }
  std::vector<LoadedChapter> chapters;
  std::map<std::string, std::string> seen;  // the real path -> its first spelling
  std::error_code ignored;
  const fs::path real_root = fs::weakly_canonical(root, ignored);
  for (const ListedChapter& chapter : listed) {
    std::string where = listed_in.empty() ? chapter.path : listed_in;
    // A control character in a chapter's path: a TAB split its manifest lines, so its files were
    // never removed as stale (tools.md TG04); any other one is echoed to the terminal.
    if (std::any_of(chapter.path.begin(), chapter.path.end(), [](char c) {
          return static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7F;
        })) {
      diagnostics.push_back(
          {listed_in.empty() ? std::string("a chapter named on the command line") : listed_in,
           chapter.line,
           "a chapter's path holds a control character (a TAB?): rename the "
           "chapter"});
      continue;
    }
    // A chapter is part of the book: under its root, also once links are followed.
    fs::path real = fs::weakly_canonical(root / chapter.path, ignored);
    fs::path inside = real.lexically_relative(real_root);
    if (fs::path(chapter.path).is_absolute() || inside.empty() || *inside.begin() == "..") {
      diagnostics.push_back({where, chapter.line,
                             chapter.path + " is outside the book's root " + options.root +
                                 ": a chapter is a path under it, such as "
                                 "chapters/3.1-reduction.md"});
      continue;
    }
    // src/ is the tangler's own output: a chapter there is overwritten by its blocks, then
    // removed as stale (tools.md TG02). Links are followed: a chapter that is a link into src/
    // is under src/ too.
    if (fs::path in_src = real.lexically_relative(fs::weakly_canonical(root / "src", ignored));
        !in_src.empty() && *in_src.begin() != "..") {
      diagnostics.push_back({where, chapter.line,
                             chapter.path +
                                 " lies under src/, the tangler's output, which it overwrites "
                                 "and removes: keep chapters elsewhere, such as chapters/"});
      continue;
    }
    // One file under two spellings (chapters/./c.md, a link to it) is listed twice too: each
    // of its blocks would be tangled twice (tools.md O6).
    if (auto [first, fresh] = seen.emplace(real.string(), chapter.path); !fresh) {
      diagnostics.push_back(
          {where, chapter.line,
           chapter.path + " is listed twice" +
               (first->second == chapter.path ? "" : " (as " + first->second + ")") +
               ": list it once"});
      continue;
    }
    std::optional<std::string> text = read_file(root / chapter.path);
    if (!text) {
      diagnostics.push_back(
          {where, chapter.line,
           listed_in.empty()
               ? "cannot be read: give a chapter path relative to the root " + options.root
               : chapter.path + " cannot be read: create it or remove this line"});
      continue;
    }
    if (text->starts_with("\xEF\xBB\xBF"))
      text->erase(0, 3);  // a byte-order mark: no part of the chapter
    chapters.push_back({chapter.path, std::move(*text)});
  }
  return chapters;
}

int report_errors(Diagnostics& diagnostics, const std::vector<std::string>& order,
                  std::ostream& err) {
  std::vector<std::string> files{kBookList};
  files.insert(files.end(), order.begin(), order.end());
  sort_in_book_order(diagnostics, files);
  drop_repeats(diagnostics);
  for (const Diagnostic& diagnostic : diagnostics) err << format(diagnostic) << "\n";
  err << "tangle: " << diagnostics.size() << (diagnostics.size() == 1 ? " error" : " errors")
      << "; nothing was written\n";
  return kErrors;
}

}  // namespace

int run(const Options& options, std::ostream& out, std::ostream& err) {
  Diagnostics diagnostics;
  std::vector<LoadedChapter> loaded = load_chapters(options, diagnostics);
  std::vector<Chapter> chapters;
  std::vector<std::string> names;
  Diagnostics warnings;
  for (const LoadedChapter& chapter : loaded) {
    ChapterReading reading = read_chapter(chapter.name, chapter.text);
    diagnostics.insert(diagnostics.end(), reading.diagnostics.begin(), reading.diagnostics.end());
    warnings.insert(warnings.end(), reading.warnings.begin(), reading.warnings.end());
    chapters.push_back(std::move(reading.chapter));
    names.push_back(chapter.name);
  }
  Diagnostics shared = cross_chapter_chunks(chapters);
  warnings.insert(warnings.end(), shared.begin(), shared.end());
  // Warnings come first, and with errors too: an untangled block may be why a chunk is missing.
  if (!options.quiet || !diagnostics.empty())
    for (const Diagnostic& warning : warnings)
      err << warning.file << (warning.line > 0 ? ":" + std::to_string(warning.line) : "")
          << ": warning: " << warning.message << "\n";
  Tangling tangling = tangle_chapters(chapters);
  diagnostics.insert(diagnostics.end(), tangling.diagnostics.begin(), tangling.diagnostics.end());
  if (!diagnostics.empty()) return report_errors(diagnostics, names, err);

  try {
    OutputTree tree(options.root);
    Manifest previous = parse_manifest(tree.read(kManifestPath).value_or(""));
    Ownership ownership =
        settle_ownership(previous, tangling.files, names, options.chapters.empty(), diagnostics);
    if (!diagnostics.empty()) return report_errors(diagnostics, names, err);

    if (options.check) {
      std::vector<std::string> problems = out_of_step(tree, tangling.files, ownership);
      for (const std::string& problem : problems) err << problem << "\n";
      if (!problems.empty()) {
        err << "tangle --check: " << problems.size()
            << " file(s) of src/ out of step with the chapters; run make tangle\n";
        return kOutOfStep;
      }
      if (!options.quiet)
        out << "tangle --check: src/ is in step with " << names.size() << " chapter(s)\n";
      return kDone;
    }

    // Every path first: a folder linked out of src/ refuses the run with nothing written.
    for (const TangledFile& file : tangling.files) tree.check(file.path);
    for (const std::string& path : ownership.stale) try {
        tree.check(path);
      } catch (const std::exception& failure) {  // tools.md P7: the line to remove was not named
        throw std::runtime_error(std::string(kManifestPath) + " lists " + path +
                                 ", which no chapter tangles any more, so it would be removed; " +
                                 failure.what() + ". Remove that line from " + kManifestPath +
                                 " (and the link, if it is one); nothing was written");
      }
    // Every file to a temporary first, the manifest last; only when all are written are they
    // renamed into place, so a failure leaves src/ as it was (tools.md L2).
    std::vector<OutputTree::Staged> staged;
    std::optional<OutputTree::Staged> staged_manifest;
    std::string manifest = format_manifest(ownership.manifest);
    try {
      for (const TangledFile& file : tangling.files) try {
          if (auto s = tree.stage(file.path, file.content)) staged.push_back(*s);
        } catch (const std::exception& failure) {
          throw std::runtime_error(file.chapters.front() + ":" + std::to_string(file.line) + ": " +
                                   failure.what() + "; nothing was written");
        }
      if (!manifest.empty() || tree.read(kManifestPath))
        staged_manifest = tree.stage(kManifestPath, manifest);
    } catch (...) {
      for (const auto& s : staged) tree.discard(s);
      tree.remove_folders_made();
      throw;
    }
    auto discard_manifest = [&] {
      if (staged_manifest) tree.discard(*staged_manifest);
    };
    size_t written = 0, removed = 0;
    for (size_t i = 0; i < staged.size(); ++i) {
      try {
        tree.commit(staged[i]);
      } catch (...) {
        for (size_t j = i + 1; j < staged.size(); ++j) tree.discard(staged[j]);
        discard_manifest();
        tree.remove_folders_made();  // those left empty: src/ as it was where nothing moved in
        throw;
      }
      ++written;
      if (!options.quiet) out << "wrote " << staged[i].relative << "\n";
    }
    try {
      for (const std::string& path : ownership.stale)
        if (tree.remove(path)) {
          ++removed;
          if (!options.quiet) out << "removed " << path << " (no chapter tangles it any more)\n";
        }
    } catch (...) {
      discard_manifest();
      throw;
    }
    if (staged_manifest) tree.commit(*staged_manifest);
    if (!options.quiet)
      out << "tangle: " << tangling.files.size() << " file(s) from " << names.size()
          << " chapter(s); " << written << " written, " << removed << " removed\n";
    return kDone;
  } catch (const std::exception& failure) {
    err << "tangle: " << failure.what() << "\n";
    return kErrors;
  }
}

}  // namespace tangle
