// A folder held open by its descriptor. The tangler reaches every file of src/ through these, one
// name at a time and never through a symbolic link: a path checked and then used by name can be
// redirected in between (tools.md TG01: src/a swapped for a link to a folder elsewhere while the
// tangler ran sent x.cu there), a descriptor cannot.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tangle {

class Folder {
 public:
  // The folder at `path`, links followed (the book's root, as the user gave it); nothing when it
  // cannot be opened.
  static std::optional<Folder> open(const std::filesystem::path& path);

  Folder(Folder&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Folder& operator=(Folder&& other) noexcept;
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  ~Folder();

  // What stands at `name` in this folder, a link seen as a link.
  enum class Kind { none, folder, file, link, other };
  Kind kind_of(const std::string& name) const;

  // The folder `name` inside this one, a link not followed: nothing and `error` set to errno when
  // it cannot be opened (ELOOP: a link; ENOTDIR: no folder; ENOENT: nothing there).
  std::optional<Folder> child(const std::string& name, int& error) const;
  // Makes the folder `name`; false and `error` set when it cannot (EEXIST when something is there).
  bool make_child(const std::string& name, int& error) const;
  // Where the link `name` points, as written in it.
  std::string link_target(const std::string& name) const;

  // The regular file `name`'s bytes, a link not followed; nothing when it is no regular file.
  std::optional<std::string> read(const std::string& name) const;
  // Writes `content` to a new file `name` (which must not exist; a link there is not followed),
  // executable when asked. Returns errno, or 0.
  int write_new(const std::string& name, const std::string& content, bool executable) const;
  // Renames `from` to `to`, both in this folder; returns errno, or 0.
  int rename(const std::string& from, const std::string& to) const;
  // Removes the file (or, with `folder`, the empty folder) `name`; returns errno, or 0.
  int remove(const std::string& name, bool folder = false) const;
  // The names in this folder, "." and ".." left out.
  std::vector<std::string> names() const;

  // The device and inode: the same pair is the same folder, wherever it has moved.
  std::pair<dev_t, ino_t> identity() const;
  int fd() const { return fd_; }

 private:
  explicit Folder(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace tangle
