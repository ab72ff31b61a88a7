#include "ownership.h"

#include <map>

namespace tangle {

Ownership settle_ownership(const Manifest& previous, const std::vector<TangledFile>& files,
                           const std::vector<std::string>& processed, bool whole_book,
                           Diagnostics& diagnostics) {
  std::set<std::string> processed_set(processed.begin(), processed.end());
  auto is_replaced = [&](const std::string& chapter) {
    return whole_book || processed_set.contains(chapter);
  };
  Ownership ownership;
  std::set<std::string> produced;
  for (const TangledFile& file : files) {
    produced.insert(file.path);
    for (const std::string& chapter : file.chapters) ownership.manifest.emplace(chapter, file.path);
  }
  std::map<std::string, std::string> kept_owner;  // path -> an unprocessed chapter that keeps it
  for (const auto& [chapter, path] : previous)
    if (!is_replaced(chapter)) {
      ownership.manifest.emplace(chapter, path);
      kept_owner.emplace(path, chapter);
    }
  for (const TangledFile& file : files)
    if (auto other = kept_owner.find(file.path); other != kept_owner.end())
      diagnostics.push_back({file.chapters.front(), file.line,
                             file.path + " is also tangled from " + other->second + " (says " +
                                 kManifestPath +
                                 "): tangle both chapters in one run, "
                                 "or run tangle without naming chapters"});
  std::set<std::string> stale;
  for (const auto& [chapter, path] : previous)
    if (is_replaced(chapter) && !produced.contains(path) && !kept_owner.contains(path))
      stale.insert(path);
  ownership.stale.assign(stale.begin(), stale.end());
  return ownership;
}

}  // namespace tangle
