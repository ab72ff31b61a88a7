// A throwaway book in a temporary folder, for tests that run the tangler end to end.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tangle::testing {

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

class TestBook {
 public:
  TestBook();  // a fresh, empty folder under the system's temporary folder
  ~TestBook();
  TestBook(const TestBook&) = delete;
  TestBook& operator=(const TestBook&) = delete;

  const std::filesystem::path& root() const { return root_; }
  void write(const std::string& relative, const std::string& text) const;
  std::string read(const std::string& relative) const;
  bool exists(const std::string& relative) const;
  void remove(const std::string& relative) const;
  // Writes book/chapters.txt listing `chapters` in order.
  void list(const std::vector<std::string>& chapters) const;
  // Runs the tangler in process with these arguments and --root set to this book.
  RunResult tangle(std::vector<std::string> arguments = {}) const;

 private:
  std::filesystem::path root_;
};

// The lines of `text` (without newlines).
std::vector<std::string> lines_of(const std::string& text);

}  // namespace tangle::testing
