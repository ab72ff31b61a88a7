#include "test_book.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "options.h"
#include "run.h"

namespace tangle::testing {

namespace fs = std::filesystem;

TestBook::TestBook() {
  static std::atomic<int> counter{0};
  root_ = fs::temp_directory_path() /
          ("tangle-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(root_);
  fs::create_directories(root_);
}

TestBook::~TestBook() {
  std::error_code ignored;
  fs::remove_all(root_, ignored);
}

void TestBook::write(const std::string& relative, const std::string& text) const {
  fs::path path = root_ / relative;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::string TestBook::read(const std::string& relative) const {
  std::ifstream in(root_ / relative, std::ios::binary);
  if (!in) throw std::runtime_error("test book has no " + relative);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

bool TestBook::exists(const std::string& relative) const { return fs::exists(root_ / relative); }

void TestBook::remove(const std::string& relative) const { fs::remove(root_ / relative); }

void TestBook::list(const std::vector<std::string>& chapters) const {
  std::string text = "# test book\n";
  for (const std::string& chapter : chapters) text += chapter + "\n";
  write("book/chapters.txt", text);
}

RunResult TestBook::tangle(std::vector<std::string> arguments) const {
  arguments.insert(arguments.begin(), {"--root", root_.string()});
  OptionsParse parse = parse_options(arguments);
  if (!parse.error.empty()) throw std::runtime_error(parse.error);
  std::ostringstream out, err;
  RunResult result;
  result.status = run(parse.options, out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace tangle::testing
