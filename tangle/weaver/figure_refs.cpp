#include "figure_refs.h"

#include <algorithm>

#include "spans.h"

namespace weave {

std::string figure_path(const std::string& target, SourceLine at, const BookContext& book,
                        Diagnostics& diagnostics, std::set<std::string>& figures,
                        std::vector<int>& unmeasured_lines) {
  const std::string& file = at.file;
  const int line = at.line;
  bool ceilings = book.store->machine && book.store->machine->ceilings.count("copy_bandwidth");
  // roofline:ID draws chapter ID's kernels; roofline:ID/NAME those it lists with figure: NAME.
  const std::string id = target.substr(0, target.find('/'));
  const std::string name =
      target.find('/') == std::string::npos ? "" : target.substr(target.find('/') + 1);
  const std::string figure_id = name.empty() ? id : id + "-" + name;
  if (id != "book") {
    auto it = book.chapters_by_id.find(id);
    if (it == book.chapters_by_id.end()) {
      diagnostics.error(
          file, line,
          "roofline:" + target + " names no chapter: use a chapter's id or roofline:book");
      return "";
    }
    const auto& kernels = it->second->fm.kernels;
    if (kernels.empty()) {
      diagnostics.error(
          file, line,
          "roofline:" + target + ": chapter " + id + " lists no kernels: in its front matter");
      return "";
    }
    bool listed = std::any_of(kernels.begin(), kernels.end(),
                              [&](const KernelPoint& k) { return k.figure == name; });
    if (!listed) {
      diagnostics.error(
          file, line,
          "roofline:" + target + ": chapter " + id + " lists no kernel " +
              (name.empty() ? std::string("without a figure: field") : "with figure: " + name) +
              " in its front matter");
      return "";
    }
    if (!ceilings && book.store->record(id) && !book.store->machine_unreadable) {
      diagnostics.error(file, line,
                        "roofline:" + target + ": chapter " + id +
                            " has kernels but no ceilings to draw "
                            "them under: " +
                            book.store->folder + "/machine.json is missing; run make measure");
      return "";
    }
  } else if (!name.empty()) {
    diagnostics.error(
        file, line,
        "roofline:" + target + ": the book's figure has no named parts: use roofline:book");
    return "";
  }
  if (!ceilings) {
    unmeasured_lines.push_back(line);
    return kUnmeasuredFigure;
  }
  figures.insert(figure_id);
  return "figures/roofline-" + figure_id + ".svg";
}

}  // namespace weave
