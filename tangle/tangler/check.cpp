#include "check.h"

namespace tangle {

std::vector<std::string> out_of_step(const OutputTree& tree, const std::vector<TangledFile>& files,
                                     const Ownership& ownership) {
  std::vector<std::string> problems;
  for (const TangledFile& file : files) {
    std::optional<std::string> on_disk = tree.read(file.path);
    if (!on_disk)
      problems.push_back(file.path + ": missing; it is tangled from " + file.chapters.front());
    else if (*on_disk != file.content)
      problems.push_back(file.path + ": differs from " + file.chapters.front() +
                         " (edited by hand, or the chapter changed)");
  }
  for (const std::string& path : ownership.stale)
    if (tree.read(path))
      problems.push_back(path +
                         ": no chapter tangles it any more, but the tangler wrote it before");
  std::string manifest = format_manifest(ownership.manifest);
  std::optional<std::string> manifest_on_disk = tree.read(kManifestPath);
  if (manifest_on_disk.value_or("") != manifest && (manifest_on_disk || !manifest.empty()))
    problems.push_back(std::string(kManifestPath) +
                       ": does not list the files the chapters tangle");
  return problems;
}

}  // namespace tangle
