// Stale numbers: a record measured the chapter's tangled sources with a hash (book/CONVENTIONS.md:
// SHA-256 over the files in path order, each as path, NUL, bytes, NUL). The weaver recomputes it
// from src/.tangle-manifest (lines "chapter<TAB>path") and the files; a different hash means the
// code changed since the numbers were measured.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace weave {

// The manifest's paths by chapter. The chapter column may be the chapter's id, its path
// (chapters/3.1-reduction.md) or its file name; `files_of` accepts any of them.
class Manifest {
 public:
  static Manifest read(const std::filesystem::path& root);  // root/src/.tangle-manifest
  bool present() const { return present_; }
  std::vector<std::string> files_of(const std::string& id, const std::string& chapter_path) const;
  std::vector<std::string> files_under(const std::string& folder) const;  // src/bench/

 private:
  bool present_ = false;
  std::vector<std::pair<std::string, std::string>> entries_;  // chapter, path
};

// The hash of `paths` (relative to root), sorted; a missing file hashes as absent, so it differs.
std::string sources_sha256(const std::filesystem::path& root, std::vector<std::string> paths);

}  // namespace weave
