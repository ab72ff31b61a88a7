#include "fixture.h"

#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

namespace weave::testing {
namespace fs = std::filesystem;

FixtureBook::FixtureBook() {
  std::random_device random;
  root_ = fs::temp_directory_path() / ("weave-test-" + std::to_string(random()));
  fs::copy(WEAVE_FIXTURES "/book", root_, fs::copy_options::recursive);
}

FixtureBook::~FixtureBook() {
  std::error_code ignored;
  fs::remove_all(root_, ignored);
}

void FixtureBook::write(const std::string& path, const std::string& content) const {
  fs::create_directories((root_ / path).parent_path());
  std::ofstream(root_ / path, std::ios::binary) << content;
}

std::string FixtureBook::read(const std::string& path) const {
  std::ifstream in(root_ / path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void FixtureBook::remove(const std::string& path) const { fs::remove(root_ / path); }

void FixtureBook::replace(const std::string& path, const std::string& from,
                          const std::string& to) const {
  std::string text = read(path);
  size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << "'" << from << "' is not in " << path;
  write(path, text.replace(at, from.size(), to));
}

void copy_gpu(const FixtureBook& book, const std::string& slug, const std::string& name,
              const std::function<void(nlohmann::json&)>& edit) {
  for (const char* file : {"machine.json", "1.json"}) {
    const std::string from = std::string("book/measurements/testgpu/") + file;
    nlohmann::json j = nlohmann::json::parse(book.read(from));
    j["gpu"] = name;
    j["context"]["gpu"] = name;
    if (std::string(file) == "1.json") edit(j);
    book.write("book/measurements/" + slug + "/" + file, j.dump(2));
  }
}

FixtureBook::Run FixtureBook::weave(bool strict) const {
  return weave_with([&](Options& options) { options.strict = strict; });
}

FixtureBook::Run FixtureBook::weave_with(const std::function<void(Options&)>& adjust) const {
  Options options;
  options.root = root_;
  options.out = "build/book/woven";
  adjust(options);
  Run run;
  run.status = weave::run(options, run.diagnostics);
  std::ostringstream printed;
  run.diagnostics.print(printed);
  run.printed = printed.str();
  return run;
}

std::map<std::string, std::string> FixtureBook::outputs() const {
  std::map<std::string, std::string> files;
  if (!fs::exists(out())) return files;
  for (const auto& entry : fs::directory_iterator(out()))
    files[entry.path().filename().string()] = read(fs::relative(entry.path(), root_).string());
  return files;
}

}  // namespace weave::testing
