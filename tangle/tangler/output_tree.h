// The only place the tangler touches the disk's src/. Every file is reached from the book's root
// one folder at a time through open descriptors (folder.h), never through a symbolic link, so no
// file is read, written or removed outside <root>/src/, even when a folder is swapped for a link
// while the tangler runs (tools.md TG01).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "folder.h"

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
    std::string folder;     // the target's folder, "src/a"
    std::string temporary;  // the names of the temporary and of the target in that folder
    std::string name;
    std::string relative;  // "src/a/x.cu"
  };
  // Writes `content` to a temporary file in the target's folder unless the file already holds
  // exactly these bytes (then nothing). Every file of a run is staged before any is renamed, so
  // a folder that cannot be made, or a folder where a file should be, fails the run with src/ as
  // it was (tools.md L2). Throws std::runtime_error with a sentence on failure.
  std::optional<Staged> stage(const std::string& relative, const std::string& content) const;
  // Renames a staged file into place: a reader never sees half a file. Refused when the folder at
  // the target's path is no longer the one the temporary was written in.
  void commit(const Staged& staged) const;
  // Removes a staged temporary (a run that failed before its renames).
  void discard(const Staged& staged) const;
  // Removes the folders this run made that are still empty (a run that failed: tools.md TG06
  // left src/a/ behind a message that ended "nothing was written").
  void remove_folders_made() const;

  // Removes the file if it exists, then any folders it leaves empty, up to (not including) src/.
  bool remove(const std::string& relative) const;

  // Throws, as the calls above would, if a symbolic link stands on the way to `relative`: a run
  // checks every path first, so a link refuses it before any file is written.
  void check(const std::string& relative) const;

 private:
  // The folders from src/ down to the one holding `relative` ("src/a/x.cu": src, src/a), each
  // opened inside the last, a link never followed (an error naming it). Empty when one of them
  // does not exist (or is a file) and `make` is false; with `make`, missing ones are made.
  std::vector<Folder> folders_of(const std::string& relative, bool make) const;

  std::filesystem::path root_;
  Folder root_folder_;
  mutable std::map<std::string, Folder> staging_;  // the folders temporaries were written in
  mutable std::vector<std::string> made_;          // the folders this run made, in order
  mutable std::set<std::string> swept_;            // folders cleared of killed runs' temporaries
};

}  // namespace tangle
