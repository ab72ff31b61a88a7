#include "manifest.h"

#include "book_index.h"

namespace tangle {

Manifest parse_manifest(std::string_view text) {
  Manifest manifest;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.ends_with('\r')) line.remove_suffix(1);
    size_t tab = line.find('\t');
    if (line.empty() || line.front() == '#' || tab == std::string_view::npos) continue;
    std::string path(line.substr(tab + 1));
    if (!file_path_problem(path).empty()) continue;
    manifest.emplace(std::string(line.substr(0, tab)), std::move(path));
  }
  return manifest;
}

std::string format_manifest(const Manifest& manifest) {
  std::string text;
  for (const auto& [chapter, path] : manifest) text += chapter + "\t" + path + "\n";
  return text;
}

}  // namespace tangle
