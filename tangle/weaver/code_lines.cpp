#include "code_lines.h"

#include <cmark.h>

#include <algorithm>
#include <memory>

namespace weave {

std::vector<bool> code_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  std::vector<bool> code(lines.size(), false);
  std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(
      cmark_parse_document(text.data(), text.size(), CMARK_OPT_DEFAULT), cmark_node_free);
  std::unique_ptr<cmark_iter, decltype(&cmark_iter_free)> iterator(cmark_iter_new(document.get()),
                                                                   cmark_iter_free);
  for (cmark_event_type event; (event = cmark_iter_next(iterator.get())) != CMARK_EVENT_DONE;) {
    cmark_node* node = cmark_iter_get_node(iterator.get());
    if (event != CMARK_EVENT_ENTER) continue;
    cmark_node_type type = cmark_node_get_type(node);
    const char* literal = type == CMARK_NODE_HTML_BLOCK ? cmark_node_get_literal(node) : nullptr;
    bool comment = literal && std::string(literal).starts_with("<!--");
    if (type != CMARK_NODE_CODE_BLOCK && !comment) continue;
    int start = cmark_node_get_start_line(node), end = cmark_node_get_end_line(node);
    // cmark 0.30 ends a comment's block a line early when --> closes it: the line holding the
    // "-->" is the comment's last
    if (comment)
      for (int n = std::max(start, 1); n <= static_cast<int>(lines.size()); ++n)
        if (lines[n - 1].find("-->") != std::string::npos) {
          end = std::max(end, n);
          break;
        }
    for (int n = std::max(start, 1); n <= end && n <= static_cast<int>(lines.size()); ++n)
      code[n - 1] = true;
  }
  return code;
}

}  // namespace weave
