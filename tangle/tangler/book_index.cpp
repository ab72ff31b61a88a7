#include "book_index.h"

#include "manifest.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

namespace tangle {

namespace {

// Checks a chapter's `src:` folder itself; returns "" when fine.
std::string folder_problem(const std::string& folder) {
  if (folder.empty())
    return "the front matter's src: is empty: name the chapter's folder under src/";
  // One folder name, as measure.py requires (it runs build/<src>_test): CMake builds src/<name>/
  // alone, so src: a/b and src: "a b" built nothing (tools.md Z3).
  const bool plain =
      std::all_of(folder.begin(), folder.end(),
                  [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; }) &&
      folder.front() != '-';
  if (!plain || !file_path_problem("src/" + folder + "/file").empty())
    return "src: " + folder +
           " is not one folder name under src/ (letters, digits, '_' or '-'): write it as "
           "src: reduce";
  return "";
}

}  // namespace

std::string file_path_problem(const std::string& path) {
  if (path.empty())
    return "file= is empty: give the path of the file to write, such as src/reduce/reduce.cu";
  // Letters, digits, '.', '_', '-' and '/': what every file= of the book uses. A control
  // character was written as is and echoed to the terminal (tools.md TG03: an escape sequence;
  // T17: a NUL), a TAB broke the manifest's lines (TG04), and a trailing space or a name in two
  // Unicode spellings made files that look alike, one of them never built (TG05).
  for (size_t i = 0; i < path.size(); ++i) {
    const auto c = static_cast<unsigned char>(path[i]);
    if (std::isalnum(c) && c < 0x80) continue;
    if (c == '.' || c == '_' || c == '-' || c == '/') continue;
    char shown[8];
    std::snprintf(shown, sizeof shown, "0x%02X", c);
    const std::string printable = c > 0x20 && c < 0x7F
                                      ? "'" + std::string(1, path[i]) + "' (" + shown + ")"
                                      : std::string(shown);
    return "file= has the character " + printable + " at byte " + std::to_string(i + 1) +
           " of its path: a path under src/ is letters, digits, '.', '_', '-' and '/', one "
           "word to CMake's globs and to every shell";
  }
  if (path.front() == '/' || (path.size() > 1 && path[1] == ':'))
    return "file=" + path + " is absolute: give a path under src/, such as src/reduce/reduce.cu";
  if (path.find('\\') != std::string::npos)
    return "file=" + path + " has a backslash: separate folders with '/'";
  if (!path.starts_with("src/"))
    return "file=" + path + " is outside src/: the tangler only writes under src/";
  // Names the file system takes (tools.md TG06: a 300-byte name was reported as a link out of
  // src/, after src/a/ was made): a folder's name at most 255 bytes, a file's at most 235 (its
  // temporary, ".NAME.tangle-tmp-PID", is 20 bytes longer), and the path at most 1024 (the
  // book's longest is under 60).
  const std::string shown = path.size() > 60 ? path.substr(0, 40) + "..." : path;
  if (path.size() > 1024)
    return "file=" + shown + " is a path of " + std::to_string(path.size()) +
           " bytes: a path under src/ is at most 1024 bytes; shorten it";
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t end = path.find('/', pos);
    if (end == std::string::npos) end = path.size();
    std::string_view part(path.data() + pos, end - pos);
    const size_t limit = end == path.size() ? 235 : 255;
    if (part.size() > limit)
      return "file=" + shown + " has a " + (limit == 235 ? "file" : "folder") + " name of " +
             std::to_string(part.size()) + " bytes: a file's name is at most 235 bytes (the " +
             "file system's limit is 255, and the tangler's temporary name adds 20), a " +
             "folder's 255; shorten it";
    if (part == "..")
      return "file=" + path + " contains '..': give a plain path under src/ without '..'";
    if (part.empty() || part == ".")
      return "file=" + path +
             " has an empty or '.' folder (or ends in '/'): give a plain file path";
    pos = end + 1;
  }
  if (path == kManifestPath)
    return "file=" + path + " is the tangler's own manifest: choose another name";
  return "";
}

Diagnostics cross_chapter_chunks(const std::vector<Chapter>& chapters) {
  Diagnostics warnings;
  std::map<std::string, const Block*> first;             // a chunk's first block in book order
  std::set<std::pair<std::string, std::string>> warned;  // (chunk, chapter)
  for (const Chapter& chapter : chapters)
    for (const Block& block : chapter.blocks) {
      if (!block.id) continue;
      auto [entry, is_new] = first.try_emplace(*block.id, &block);
      const Block& origin = *entry->second;
      if (is_new || origin.chapter == block.chapter) continue;
      if (!warned.insert({*block.id, block.chapter}).second) continue;
      warnings.push_back(
          {chapter.name, block.fence_line,
           "chunk #" + *block.id + " is first defined in " + origin.chapter + ":" +
               std::to_string(origin.fence_line) +
               ", so this block continues that chapter's chunk; if that is not meant, rename it "
               "(prefix it with this chapter's folder: #" +
               (chapter.src_folder.empty() ? std::string("name") : chapter.src_folder) + "-" +
               *block.id + ")"});
    }
  return warnings;
}

BookIndex index_book(const std::vector<Chapter>& chapters, Diagnostics& diagnostics) {
  BookIndex index;
  for (const Chapter& chapter : chapters) {
    std::string folder_error = chapter.src_folder.empty() && chapter.src_line == 0
                                   ? ""
                                   : folder_problem(chapter.src_folder);
    if (!folder_error.empty())
      diagnostics.push_back({chapter.name, chapter.src_line, folder_error});
    std::string prefix = "src/" + chapter.src_folder + "/";
    for (const Block& block : chapter.blocks) {
      if (block.id) {
        index.chunks[*block.id].push_back(&block);
        continue;
      }
      const std::string& path = *block.file;
      if (std::string problem = file_path_problem(path); !problem.empty()) {
        diagnostics.push_back({chapter.name, block.fence_line, problem});
        index.rejected.push_back(&block);
        continue;
      }
      if (chapter.src_line > 0 && folder_error.empty() && !path.starts_with(prefix)) {
        diagnostics.push_back({chapter.name, block.fence_line,
                               "file=" + path + " is outside this chapter's folder " + prefix +
                                   " (its front matter says src: " + chapter.src_folder +
                                   "): move the file under " + prefix + " or change src:"});
        index.rejected.push_back(&block);
        continue;
      }
      auto [entry, is_new] = index.files.try_emplace(path);
      if (is_new) index.file_order.push_back(path);
      if (!entry->second.empty() && entry->second.front()->language != block.language) {
        const Block& first = *entry->second.front();
        diagnostics.push_back({chapter.name, block.fence_line,
                               path + " is tangled here as ." + block.language + " but as ." +
                                   first.language + " at " + first.chapter + ":" +
                                   std::to_string(first.fence_line) +
                                   ": give every block of one file the same language"});
        index.rejected.push_back(&block);
        continue;
      }
      entry->second.push_back(&block);
    }
  }
  // A path cannot be both a file and a folder of other files.
  for (const auto& [path, blocks] : index.files) {
    auto inside = index.files.lower_bound(path + "/");
    if (inside != index.files.end() && inside->first.starts_with(path + "/") &&
        !inside->second.empty()) {
      const Block& block = *inside->second.front();
      diagnostics.push_back({block.chapter, block.fence_line,
                             inside->first + " lies in " + path +
                                 ", which another block writes as a file: rename one of them"});
    }
  }
  return index;
}

}  // namespace tangle
