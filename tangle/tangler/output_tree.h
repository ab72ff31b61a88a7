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
  // Throws if <root>/src is a symbolic link: the tangler writes into the tree, never through a
  // link to elsewhere (tools.md Z5).
  explicit OutputTree(std::filesystem::path root);

  // The file's bytes, or nothing when it does not exist (or is not a regular file).
  std::optional<std::string> read(const std::string& relative) const;

  // A file written to its temporary beside the target, waiting to be renamed into place.
  struct Staged {
    std::filesystem::path temporary, target;
    std::string relative;
  };
  // Writes `content` to a temporary file in the target's folder unless the file already holds
  // exactly these bytes (then nothing). Every file of a run is staged before any is renamed, so
  // a folder that cannot be made, or a folder where a file should be, fails the run with src/ as
  // it was (tools.md L2). Throws std::runtime_error with a sentence on failure.
  std::optional<Staged> stage(const std::string& relative, const std::string& content) const;
  // Renames a staged file into place: a reader never sees half a file.
  void commit(const Staged& staged) const;
  // Removes a staged temporary (a run that failed before its renames).
  void discard(const Staged& staged) const;

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
  mutable std::set<std::filesystem::path> swept_;  // folders cleared of killed runs' temporaries
};

}  // namespace tangle
