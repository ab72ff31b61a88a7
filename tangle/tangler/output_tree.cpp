#include "output_tree.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "read_file.h"

namespace tangle {

namespace fs = std::filesystem;

namespace {

bool is_within(const fs::path& path, const fs::path& folder) {
  auto [folder_end, path_it] =
      std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return folder_end == folder.end();
}

}  // namespace

OutputTree::OutputTree(fs::path root) : root_(std::move(root)), src_(root_ / "src") {
  std::error_code error;
  if (fs::is_symlink(src_, error))
    throw std::runtime_error(src_.string() + " is a symbolic link (to " +
                             fs::read_symlink(src_, error).string() +
                             "): the tangler writes only into the book's own src/ folder; "
                             "replace the link by a folder");
}

fs::path OutputTree::inside_src(const std::string& relative) const {
  if (!relative.starts_with("src/"))
    throw std::runtime_error(relative + " is outside src/: the tangler writes only under src/");
  fs::path path = root_ / relative;
  std::error_code error;
  if (!real_src_) real_src_ = fs::weakly_canonical(src_, error);
  fs::path folder = path.parent_path();
  if (!error && folders_inside_.contains(folder) && !fs::is_symlink(path, error)) return path;
  fs::path real_path = error ? fs::path() : fs::weakly_canonical(path, error);
  if (error || !is_within(real_path, *real_src_) || real_path == *real_src_)
    throw std::runtime_error(relative + " resolves outside " + src_.string() +
                             " (through a symbolic link?): the tangler writes only under src/");
  // Only a folder that exists can be trusted later: one made afterwards is made by us, inside.
  if (fs::is_directory(folder, error) && !fs::is_symlink(folder, error))
    folders_inside_.insert(folder);
  return path;
}

std::optional<std::string> OutputTree::read(const std::string& relative) const {
  return read_file(inside_src(relative));
}

namespace {

// Why the folder of `path` cannot be made: the first part of it that exists and is no folder.
std::string blocked_folder(const fs::path& root, const fs::path& path, const std::string& relative,
                           const std::string& cause) {
  std::error_code error;
  for (fs::path folder = path.parent_path(); folder != root && !folder.empty();
       folder = folder.parent_path())
    if (fs::exists(fs::symlink_status(folder, error)) && !fs::is_directory(folder, error))
      return "cannot create the folder of " + relative + ": " +
             fs::path(folder).lexically_relative(root).string() +
             " is a file, not a folder; remove it, or move the file elsewhere in the chapter";
  return "cannot create the folder of " + relative + ": " + cause;
}

// Removes the temporaries a killed tangler left in `folder` (".NAME.tangle-tmp-PID" of a process
// that is gone; tools.md Z1 found 86 MB ones kept for ever); a running tangler's stay.
void sweep_leftovers(const fs::path& folder) {
  const std::string mark = ".tangle-tmp-";
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    size_t at = name.rfind(mark);
    if (!name.starts_with(".") || at == std::string::npos) continue;
    const std::string pid = name.substr(at + mark.size());
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::error_code ignored;
    if (::kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH)
      fs::remove(entry.path(), ignored);
  }
}

}  // namespace

std::optional<OutputTree::Staged> OutputTree::stage(const std::string& relative,
                                                    const std::string& content) const {
  if (read(relative) == content) return std::nullopt;
  fs::path path = inside_src(relative);
  std::error_code error;
  if (fs::is_directory(fs::symlink_status(path, error)))
    throw std::runtime_error("cannot replace " + relative +
                             ": it is a folder; remove it, or name another file in the chapter");
  fs::create_directories(path.parent_path(), error);
  if (error) throw std::runtime_error(blocked_folder(root_, path, relative, error.message()));
  if (swept_.insert(path.parent_path()).second) sweep_leftovers(path.parent_path());
  fs::path temporary = path.parent_path() / ("." + path.filename().string() + ".tangle-tmp-" +
                                             std::to_string(::getpid()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, error);
      throw std::runtime_error("cannot write " + relative + ": check the disk and the permissions");
    }
  }
  if (content.starts_with("#!"))  // a script keeps its shebang's promise: it can be run
    fs::permissions(temporary,
                    fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, error);
  return Staged{temporary, path, relative};
}

void OutputTree::commit(const Staged& staged) const {
  std::error_code error;
  fs::rename(staged.temporary, staged.target, error);
  if (error) {
    discard(staged);
    throw std::runtime_error("cannot replace " + staged.relative + ": " + error.message());
  }
}

void OutputTree::discard(const Staged& staged) const {
  std::error_code ignored;
  fs::remove(staged.temporary, ignored);
}

bool OutputTree::remove(const std::string& relative) const {
  fs::path path = inside_src(relative);
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(path, error))) return false;
  if (!fs::remove(path, error) || error)
    throw std::runtime_error("cannot remove " + relative + ": " + error.message());
  for (fs::path folder = path.parent_path(); folder != src_ && is_within(folder, src_);
       folder = folder.parent_path()) {
    if (!fs::is_directory(folder, error) || !fs::is_empty(folder, error)) break;
    fs::remove(folder, error);
  }
  return true;
}

}  // namespace tangle
