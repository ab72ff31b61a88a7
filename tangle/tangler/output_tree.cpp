#include "output_tree.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tangle {

namespace fs = std::filesystem;

namespace {

// "src/a/x.cu" as {"src", "a", "x.cu"}; a path that could leave src/ throws (the tangler's own
// paths are checked by file_path_problem before they come here, the manifest's too).
std::vector<std::string> parts_of(const std::string& relative) {
  std::vector<std::string> parts;
  for (size_t pos = 0;;) {
    size_t end = relative.find('/', pos);
    parts.push_back(relative.substr(pos, end == std::string::npos ? end : end - pos));
    const std::string& part = parts.back();
    if (part.empty() || part == "." || part == "..")
      throw std::runtime_error(relative +
                               " is no plain path under src/: the tangler writes only "
                               "under src/");
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  if (parts.size() < 2 || parts.front() != "src")
    throw std::runtime_error(relative + " is outside src/: the tangler writes only under src/");
  return parts;
}

std::string joined(const std::vector<std::string>& parts, size_t count) {
  std::string path;
  for (size_t i = 0; i < count; ++i) path += (i ? "/" : "") + parts[i];
  return path;
}

std::runtime_error through_link(const std::string& relative, const std::string& link,
                                const std::string& target) {
  const std::string why = "the tangler never writes through a link, which can lead outside src/";
  if (relative == link)
    return std::runtime_error(relative + " is a symbolic link (to " + target + "): " + why +
                              ", and makes none itself; remove the link");
  return std::runtime_error(relative + " would be written through " + link +
                            ", a symbolic link (to " + target + "): " + why +
                            "; replace the link by a folder");
}

// Removes the temporaries a killed tangler left in `folder` (".NAME.tangle-tmp-PID" of a process
// that is gone; tools.md Z1 found 86 MB ones kept for ever); a running tangler's stay.
void sweep_leftovers(const Folder& folder) {
  const std::string mark = ".tangle-tmp-";
  for (const std::string& name : folder.names()) {
    size_t at = name.rfind(mark);
    if (!name.starts_with(".") || at == std::string::npos) continue;
    const std::string pid = name.substr(at + mark.size());
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos)
      continue;
    if (::kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH) folder.remove(name);
  }
}

Folder open_root(const fs::path& root) {
  std::optional<Folder> folder = Folder::open(root);
  if (!folder)
    throw std::runtime_error("cannot open the book's root " + root.string() + ": " +
                             std::strerror(errno));
  return std::move(*folder);
}

}  // namespace

OutputTree::OutputTree(fs::path root) : root_(std::move(root)), root_folder_(open_root(root_)) {
  if (root_folder_.kind_of("src") == Folder::Kind::link)
    throw std::runtime_error((root_ / "src").string() + " is a symbolic link (to " +
                             root_folder_.link_target("src") +
                             "): the tangler writes only into the book's own src/ folder; "
                             "replace the link by a folder");
}

std::vector<Folder> OutputTree::folders_of(const std::string& relative, bool make) const {
  const std::vector<std::string> parts = parts_of(relative);
  std::vector<Folder> chain;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const Folder& parent = chain.empty() ? root_folder_ : chain.back();
    const std::string so_far = joined(parts, i + 1);
    int error = 0;
    std::optional<Folder> folder = parent.child(parts[i], error);
    if (!folder && error == ENOENT && make) {
      if (parent.make_child(parts[i], error)) made_.push_back(so_far);
      if (error != 0 && error != EEXIST)
        throw std::runtime_error("cannot create the folder of " + relative + ": " + so_far + ": " +
                                 std::strerror(error));
      folder = parent.child(parts[i], error);
    }
    if (folder) {
      chain.push_back(std::move(*folder));
      continue;
    }
    const Folder::Kind kind = parent.kind_of(parts[i]);
    if (kind == Folder::Kind::link)
      throw through_link(relative, so_far, parent.link_target(parts[i]));
    if (!make && kind != Folder::Kind::folder) return {};  // not there: nothing to read or remove
    if (kind == Folder::Kind::file || kind == Folder::Kind::other)
      throw std::runtime_error("cannot create the folder of " + relative + ": " + so_far +
                               " is a file, not a folder; remove it, or move the file elsewhere "
                               "in the chapter");
    throw std::runtime_error("cannot open the folder " + so_far + " of " + relative + ": " +
                             std::strerror(error));
  }
  return chain;
}

void OutputTree::check(const std::string& relative) const {
  const std::vector<Folder> chain = folders_of(relative, false);
  const std::string name = relative.substr(relative.rfind('/') + 1);
  if (!chain.empty() && chain.back().kind_of(name) == Folder::Kind::link)
    throw through_link(relative, relative, chain.back().link_target(name));
}

std::optional<std::string> OutputTree::read(const std::string& relative) const {
  const std::vector<Folder> chain = folders_of(relative, false);
  if (chain.empty()) return std::nullopt;
  return chain.back().read(relative.substr(relative.rfind('/') + 1));
}

std::optional<OutputTree::Staged> OutputTree::stage(const std::string& relative,
                                                    const std::string& content) const {
  check(relative);
  std::vector<Folder> chain = folders_of(relative, true);
  Folder& folder = chain.back();
  const size_t slash = relative.rfind('/');
  Staged staged{relative.substr(0, slash), "", relative.substr(slash + 1), relative};
  if (folder.kind_of(staged.name) == Folder::Kind::folder)
    throw std::runtime_error("cannot replace " + relative +
                             ": it is a folder; remove it, or name another file in the chapter");
  if (folder.read(staged.name) == content) return std::nullopt;
  if (swept_.insert(staged.folder).second) sweep_leftovers(folder);
  staged.temporary = "." + staged.name + ".tangle-tmp-" + std::to_string(::getpid());
  folder.remove(staged.temporary);  // one this run staged before, for a file named twice
  if (int error = folder.write_new(staged.temporary, content, content.starts_with("#!")))
    throw std::runtime_error("cannot write " + relative + " (" + std::strerror(error) +
                             "): check the disk and the permissions");
  // try_emplace moves the folder in only when none is held for that path yet
  auto [held, first] = staging_.try_emplace(staged.folder, std::move(folder));
  if (!first && held->second.identity() != folder.identity()) {
    folder.remove(staged.temporary);
    throw std::runtime_error("cannot write " + relative + ": its folder " + staged.folder +
                             " was replaced while the tangler ran; run it again");
  }
  return staged;
}

void OutputTree::commit(const Staged& staged) const {
  const Folder& folder = staging_.at(staged.folder);
  std::string problem;
  try {  // the folder at the path must still be the one the temporary was written in
    std::vector<Folder> now = folders_of(staged.relative, false);
    if (now.empty() || now.back().identity() != folder.identity())
      problem = "its folder " + staged.folder + " was moved or replaced while the tangler ran";
  } catch (const std::exception& failure) {
    problem = failure.what();
  }
  if (problem.empty())
    if (int error = folder.rename(staged.temporary, staged.name)) problem = std::strerror(error);
  if (!problem.empty()) {
    discard(staged);
    throw std::runtime_error("cannot replace " + staged.relative + ": " + problem);
  }
}

void OutputTree::discard(const Staged& staged) const {
  if (auto held = staging_.find(staged.folder); held != staging_.end())
    held->second.remove(staged.temporary);
}

void OutputTree::remove_folders_made() const {
  for (auto made = made_.rbegin(); made != made_.rend(); ++made) try {
      if (*made == "src") {
        root_folder_.remove("src", true);
        continue;
      }
      std::vector<Folder> chain = folders_of(*made, false);
      if (!chain.empty()) chain.back().remove(made->substr(made->rfind('/') + 1), true);
    } catch (const std::exception&) {  // a link there now: not ours to remove
    }
  made_.clear();
}

bool OutputTree::remove(const std::string& relative) const {
  const std::vector<std::string> parts = parts_of(relative);
  const std::vector<Folder> chain = folders_of(relative, false);
  if (chain.empty() || chain.back().kind_of(parts.back()) != Folder::Kind::file) return false;
  if (int error = chain.back().remove(parts.back()))
    throw std::runtime_error("cannot remove " + relative + ": " + std::strerror(error));
  // the folders left empty, deepest first; src/ (chain[0]) stays. A folder that is not empty
  // refuses to go, and so ends the climb.
  for (size_t k = chain.size() - 1; k >= 1; --k)
    if (chain[k - 1].remove(parts[k], true) != 0) break;
  return true;
}

}  // namespace tangle
