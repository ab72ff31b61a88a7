#include "output.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <vector>

#include "file_reading.h"

namespace weave {
namespace fs = std::filesystem;

namespace {

bool same_content(const fs::path& path, const std::string& content) {
  std::string why;
  auto old = read_regular_file(path, why);
  return old && *old == content;
}

struct Staged {
  fs::path temporary, target, backup;  // backup: empty when the target is new
  bool renamed = false;
};

void remove_quietly(const fs::path& path) {
  std::error_code ignored;
  if (!path.empty()) fs::remove(path, ignored);
}

// Puts every renamed target back as it was (from its backup, or removed when it was new).
void roll_back(std::vector<Staged>& staged) {
  std::error_code ignored;
  for (Staged& s : staged) {
    if (s.renamed && !s.backup.empty())
      fs::rename(s.backup, s.target, ignored);
    else if (s.renamed)
      fs::remove(s.target, ignored);
    remove_quietly(s.temporary);
    remove_quietly(s.backup);
  }
}

// The temporaries and backups of a weave that was killed (".NAME.tmp.PID", ".NAME.old.PID" of a
// process that is gone) are removed; a running weave's are left alone (tools.md Z1).
void sweep_leftovers(const fs::path& folder) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    size_t dot = name.rfind('.');
    if (!name.starts_with(".") || dot == std::string::npos || dot < 4) continue;
    const std::string kind = name.substr(dot - 4, 5);
    const std::string pid = name.substr(dot + 1);
    if ((kind != ".tmp." && kind != ".old.") || pid.empty() ||
        pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 9)
      continue;
    if (::kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH)
      remove_quietly(entry.path());
  }
}

}  // namespace

// All or nothing: every changed file is written to a temporary, every target checked and backed
// up (a hard link to the old file), and only then renamed into place; a rename that fails puts
// the ones before it back, so "nothing written" is true (tools.md L3: a claims.md that was a
// folder stopped the renames after a chapter had been replaced).
bool write_outputs(const fs::path& folder, const std::map<std::string, std::string>& files,
                   Diagnostics& diagnostics) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    diagnostics.error(folder.string(), 0, "cannot be created: " + ec.message());
    return false;
  }
  sweep_leftovers(folder);
  const std::string pid = std::to_string(getpid());
  std::vector<Staged> staged;
  bool ok = true;
  for (const auto& [name, content] : files) {
    fs::path target = folder / name;
    if (same_content(target, content)) continue;
    fs::file_status status = fs::symlink_status(target, ec);
    if (fs::exists(status) && !fs::is_regular_file(status)) {
      diagnostics.error(target.string(), 0,
                        "is in the way: it is not a file (a folder, or a link?); remove it, the "
                        "weaver writes a file there");
      ok = false;
      break;
    }
    Staged s{folder / ("." + name + ".tmp." + pid), target, {}};
    std::ofstream out(s.temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    staged.push_back(s);
    if (!out) {
      diagnostics.error(target.string(), 0, "cannot be written (disk full, or no permission?)");
      ok = false;
      break;
    }
    if (fs::exists(status)) {
      staged.back().backup = folder / ("." + name + ".old." + pid);
      remove_quietly(staged.back().backup);
      fs::create_hard_link(target, staged.back().backup, ec);
      if (ec) fs::copy_file(target, staged.back().backup, ec);
      if (ec) {
        diagnostics.error(target.string(), 0,
                          "cannot be backed up before it is replaced: " + ec.message());
        ok = false;
        break;
      }
    }
  }
  for (Staged& s : staged) {
    if (!ok) break;
    fs::rename(s.temporary, s.target, ec);
    if (ec) {
      diagnostics.error(s.target.string(), 0, "cannot be replaced: " + ec.message());
      ok = false;
      break;
    }
    s.renamed = true;
    s.temporary.clear();
  }
  if (!ok) {
    roll_back(staged);
    return false;
  }
  for (Staged& s : staged) remove_quietly(s.backup);
  return true;
}

}  // namespace weave
