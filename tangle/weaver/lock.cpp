#include "lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace weave {

LockState hold_lock(const std::filesystem::path& path, bool wait, std::string& why) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    why = std::string("cannot be opened: ") + std::strerror(errno);
    return LockState::failed;
  }
  while (::flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) return LockState::busy;
    why = std::string("cannot be locked: ") + std::strerror(error);
    return LockState::failed;
  }
  return LockState::held;  // fd stays open: the lock lasts as long as the process
}

}  // namespace weave
