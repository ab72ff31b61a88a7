#include "staleness.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "file_reading.h"
#include "sha256.h"

namespace weave {
namespace fs = std::filesystem;

Manifest Manifest::read(const fs::path& root) {
  Manifest m;
  std::string why;
  auto bytes = read_regular_file(root / "src" / ".tangle-manifest", why);
  if (!bytes) return m;
  m.present_ = true;
  for (const std::string& line : split_lines(*bytes)) {
    size_t tab = line.find('\t');
    if (line.empty() || line[0] == '#' || tab == std::string::npos) continue;
    m.entries_.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return m;
}

std::vector<std::string> Manifest::files_of(const std::string& id,
                                            const std::string& chapter_path) const {
  std::string name = fs::path(chapter_path).filename().string();
  std::vector<std::string> files;
  for (const auto& [chapter, path] : entries_)
    if (chapter == id || chapter == chapter_path || chapter == name) files.push_back(path);
  return files;
}

std::vector<std::string> Manifest::files_under(const std::string& folder) const {
  std::vector<std::string> files;
  for (const auto& [chapter, path] : entries_)
    if (path.starts_with(folder)) files.push_back(path);
  return files;
}

// A tangled file's bytes less its `#line` directives: they move whenever prose above a block grows
// or shrinks, and a prose edit must not make a chapter's numbers look stale.
// (tangle/measure/measure.py hashes the same way; book/CONVENTIONS.md states the rule.)
static std::string code_bytes(const std::string& bytes) {
  std::string code;
  code.reserve(bytes.size());
  size_t start = 0;
  while (start < bytes.size()) {
    size_t end = bytes.find('\n', start);
    end = end == std::string::npos ? bytes.size() : end + 1;
    if (bytes.compare(start, 6, "#line ") != 0) code.append(bytes, start, end - start);
    start = end;
  }
  return code;
}

std::string sources_sha256(const fs::path& root, std::vector<std::string> paths) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  Sha256 hash;
  for (const auto& path : paths) {
    std::string why;
    auto bytes = read_regular_file(root / path, why);
    if (!bytes) continue;
    hash.update(path);
    hash.update(std::string_view("\0", 1));
    hash.update(code_bytes(*bytes));
    hash.update(std::string_view("\0", 1));
  }
  return hash.hex();
}

}  // namespace weave
