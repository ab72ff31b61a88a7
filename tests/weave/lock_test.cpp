// The weave's lock (lock.h): busy while another open file holds it, held once it is free.
#include "lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

namespace weave {
namespace {

namespace fs = std::filesystem;

TEST(Lock, BusyWhileAnotherHoldsItThenHeld) {
  const fs::path dir = fs::temp_directory_path() / ("weave-lock-" + std::to_string(getpid()));
  const fs::path path = dir / "sub" / "book.lock";  // its folder is made
  fs::create_directories(path.parent_path());
  const int other = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);  // another render, say
  ASSERT_GE(other, 0);
  ASSERT_EQ(::flock(other, LOCK_EX), 0);
  std::string why;
  EXPECT_EQ(hold_lock(path, false, why), LockState::busy);
  ::close(other);  // that render ends
  EXPECT_EQ(hold_lock(path, false, why), LockState::held) << why;
  fs::remove_all(dir);
}

TEST(Lock, AnUnopenablePathIsSaid) {
  std::string why;
  EXPECT_EQ(hold_lock("/proc/weave-no-such/book.lock", false, why), LockState::failed);
  EXPECT_NE(why.find("cannot be opened"), std::string::npos) << why;
}

}  // namespace
}  // namespace weave
