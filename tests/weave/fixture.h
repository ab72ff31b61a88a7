// A copy of the fixture book (tests/weave/fixtures/book) in a fresh temporary folder, so a test can
// break one input, run the weaver over it and look at what it printed and wrote.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "diagnostics.h"
#include "weave.h"

namespace weave::testing {

// Whether part occurs in text (the tests' assertions on woven text and messages).
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class FixtureBook {
 public:
  FixtureBook();
  ~FixtureBook();
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path out() const { return root_ / "build/book/woven"; }

  void write(const std::string& path, const std::string& content) const;  // relative to root
  std::string read(const std::string& path) const;
  void remove(const std::string& path) const;
  // Replaces the first occurrence of `from` in a file (the test fails if there is none).
  void replace(const std::string& path, const std::string& from, const std::string& to) const;

  struct Run {
    int status = 0;
    Diagnostics diagnostics;
    std::string printed;  // what weave prints: file:line: ...
  };
  Run weave(bool strict = false) const;
  // The same with options set as the command line would (root and out are the fixture's).
  Run weave_with(const std::function<void(Options&)>& adjust) const;
  // Every file under the output folder, name -> content: to show a failed run left it intact.
  std::map<std::string, std::string> outputs() const;

 private:
  std::filesystem::path root_;
};

// A copy of the fixture's GPU (book/measurements/testgpu) under another slug and GPU name, its
// record of chapter 1 changed by `edit`: a second GPU beside the reference.
void copy_gpu(const FixtureBook& book, const std::string& slug, const std::string& name,
              const std::function<void(nlohmann::json&)>& edit);

}  // namespace weave::testing
