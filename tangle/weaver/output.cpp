#include "output.h"

#include <unistd.h>
#include <fstream>
#include <sstream>
#include <vector>

namespace weave {
namespace fs = std::filesystem;

namespace {

bool same_content(const fs::path& path, const std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream old;
  old << in.rdbuf();
  return old.str() == content;
}

}  // namespace

bool write_outputs(const fs::path& folder, const std::map<std::string, std::string>& files,
                   Diagnostics& diagnostics) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    diagnostics.error(folder.string(), 0, "cannot be created: " + ec.message());
    return false;
  }
  std::vector<std::pair<fs::path, fs::path>> staged;  // temporary -> final
  bool ok = true;
  for (const auto& [name, content] : files) {
    fs::path target = folder / name;
    if (same_content(target, content)) continue;
    fs::path temporary = folder / ("." + name + ".tmp." + std::to_string(getpid()));
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    staged.emplace_back(temporary, target);
    if (!out) {
      diagnostics.error(target.string(), 0, "cannot be written (disk full, or no permission?)");
      ok = false;
      break;
    }
  }
  for (const auto& [temporary, target] : staged) {
    std::error_code ignored;
    if (!ok) {
      fs::remove(temporary, ignored);
      continue;
    }
    fs::rename(temporary, target, ec);
    if (ec) {
      diagnostics.error(target.string(), 0, "cannot be replaced: " + ec.message());
      fs::remove(temporary, ignored);
      ok = false;
    }
  }
  return ok;
}

}  // namespace weave
