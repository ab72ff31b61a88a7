#include "folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace tangle {

std::optional<Folder> Folder::open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  return Folder(fd);
}

Folder& Folder::operator=(Folder&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

Folder::~Folder() {
  if (fd_ >= 0) ::close(fd_);
}

Folder::Kind Folder::kind_of(const std::string& name) const {
  struct stat status;
  if (::fstatat(fd_, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) return Kind::none;
  if (S_ISDIR(status.st_mode)) return Kind::folder;
  if (S_ISREG(status.st_mode)) return Kind::file;
  if (S_ISLNK(status.st_mode)) return Kind::link;
  return Kind::other;
}

std::optional<Folder> Folder::child(const std::string& name, int& error) const {
  int fd = ::openat(fd_, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    error = errno;
    return std::nullopt;
  }
  error = 0;
  return Folder(fd);
}

bool Folder::make_child(const std::string& name, int& error) const {
  error = ::mkdirat(fd_, name.c_str(), 0777) == 0 ? 0 : errno;
  return error == 0;
}

std::string Folder::link_target(const std::string& name) const {
  char target[4096];
  ssize_t size = ::readlinkat(fd_, name.c_str(), target, sizeof target);
  return size < 0 ? std::string() : std::string(target, static_cast<size_t>(size));
}

std::optional<std::string> Folder::read(const std::string& name) const {
  // O_NONBLOCK: a FIFO in src/ is opened at once (and then refused), not waited on
  int fd = ::openat(fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat status;
  std::optional<std::string> bytes;
  if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
    bytes.emplace();
    char buffer[1 << 16];
    for (;;) {
      ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) bytes.reset();
      if (got <= 0) break;
      bytes->append(buffer, static_cast<size_t>(got));
    }
  }
  ::close(fd);
  return bytes;
}

int Folder::write_new(const std::string& name, const std::string& content, bool executable) const {
  int fd = ::openat(fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    executable ? 0777 : 0666);
  if (fd < 0) return errno;
  int error = 0;
  for (size_t done = 0; done < content.size() && error == 0;) {
    ssize_t put = ::write(fd, content.data() + done, content.size() - done);
    if (put < 0 && errno != EINTR) error = errno;
    if (put > 0) done += static_cast<size_t>(put);
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) ::unlinkat(fd_, name.c_str(), 0);
  return error;
}

int Folder::rename(const std::string& from, const std::string& to) const {
  return ::renameat(fd_, from.c_str(), fd_, to.c_str()) == 0 ? 0 : errno;
}

int Folder::remove(const std::string& name, bool folder) const {
  return ::unlinkat(fd_, name.c_str(), folder ? AT_REMOVEDIR : 0) == 0 ? 0 : errno;
}

std::vector<std::string> Folder::names() const {
  std::vector<std::string> names;
  int fd = ::dup(fd_);  // closedir closes the descriptor it is given
  DIR* listing = fd < 0 ? nullptr : ::fdopendir(fd);
  if (!listing) {
    if (fd >= 0) ::close(fd);
    return names;
  }
  ::rewinddir(listing);  // the duplicate shares its offset with fd_
  while (const dirent* entry = ::readdir(listing)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  ::closedir(listing);
  return names;
}

std::pair<dev_t, ino_t> Folder::identity() const {
  struct stat status {};
  ::fstat(fd_, &status);
  return {status.st_dev, status.st_ino};
}

}  // namespace tangle
