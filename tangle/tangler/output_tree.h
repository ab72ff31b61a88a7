// The only place the tangler touches the disk's src/: every path is checked to lie inside
// <root>/src/ (symbolic links included) before it is read, written or removed.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>

namespace tangle {

class OutputTree {
 public:
  explicit OutputTree(std::filesystem::path root);

  // The file's bytes, or nothing when it does not exist (or is not a regular file).
  std::optional<std::string> read(const std::string& relative) const;

  // Writes `content` unless the file already holds exactly these bytes, through a temporary file
  // in the same folder and a rename, so a reader never sees half a file. Returns whether it wrote;
  // throws std::runtime_error with a sentence on failure.
  bool write_if_changed(const std::string& relative, const std::string& content) const;

  // Removes the file if it exists, then any folders it leaves empty, up to (not including) src/.
  bool remove(const std::string& relative) const;

  // Throws, as the calls above would, if `relative` lies outside src/: a run checks every path
  // first, so a link out of src/ refuses it before any file is written.
  void check(const std::string& relative) const { inside_src(relative); }

 private:
  // The absolute path for `relative` ("src/..."), or throws if it would lie outside src/.
  std::filesystem::path inside_src(const std::string& relative) const;

  std::filesystem::path root_;
  std::filesystem::path src_;
  // Resolving links costs a system call per folder of the path; each folder is checked once.
  mutable std::optional<std::filesystem::path> real_src_;
  mutable std::set<std::filesystem::path> folders_inside_;
};

}  // namespace tangle
