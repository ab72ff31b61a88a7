#include "div_lines.h"

#include <cmark.h>

#include <algorithm>
#include <map>

namespace weave {
namespace {

struct Marks {
  size_t end = 0;     // the offset just past the marks
  bool lazy = false;  // a mark is missing: a lazy continuation line
};

// Reads the marks of block quotes and list items off the lines the way cmark does (cmark's tree
// gives where a block starts, not each line's marks): a block quote's '>' (up to three spaces
// before it, one after), a list item's content column on its first line and its indent after.
class MarkReader {
 public:
  MarkReader(const std::vector<std::string>& lines, int offset) : lines_(lines), offset_(offset) {}

  // The marks of the first `depth` containers of `chain` (outermost first) on chapter line `n`.
  Marks read(const std::vector<cmark_node*>& chain, size_t depth, int n) {
    const std::string& line = lines_[n - 1];
    Marks m;
    for (size_t k = 0; k < depth && !m.lazy; ++k) {
      cmark_node* c = chain[k];
      if (cmark_node_get_type(c) == CMARK_NODE_BLOCK_QUOTE) {
        size_t i = m.end;
        while (i < line.size() && i < m.end + 3 && line[i] == ' ') ++i;
        m.lazy = i >= line.size() || line[i] != '>';
        if (m.lazy) break;
        m.end = i + 1;
        if (m.end < line.size() && (line[m.end] == ' ' || line[m.end] == '\t')) ++m.end;
        continue;
      }
      cmark_node* content = cmark_node_first_child(c);  // a list item
      if (!content) break;
      const int first = cmark_node_get_start_line(content) + offset_;
      if (n == first) {
        m.end = std::max(m.end, static_cast<size_t>(cmark_node_get_start_column(content) - 1));
        continue;
      }
      const size_t width = indent_of(chain, k, content, first);
      m.lazy = line.compare(m.end, width, std::string(width, ' ')) != 0;
      if (!m.lazy) m.end += width;
    }
    return m;
  }

 private:
  // A list item's indent: its content's column past its outer containers' marks on its first
  // line (cached: each item is measured once however deep the nesting).
  size_t indent_of(const std::vector<cmark_node*>& chain, size_t k, cmark_node* content,
                   int first) {
    auto [it, fresh] = indent_.try_emplace(chain[k], 0);
    if (!fresh) return it->second;
    const size_t column = cmark_node_get_start_column(content) - 1;
    const size_t outer = read(chain, k, first).end;
    return indent_[chain[k]] = column > outer ? column - outer : 0;
  }

  const std::vector<std::string>& lines_;
  const int offset_;
  std::map<cmark_node*, size_t> indent_;
};

// The block quotes and list items around `node`, outermost first; empty past kMaxDivDepth.
bool containers_of(cmark_node* node, std::vector<cmark_node*>& chain) {
  chain.clear();
  for (cmark_node* p = cmark_node_parent(node); p; p = cmark_node_parent(p)) {
    const cmark_node_type type = cmark_node_get_type(p);
    if (type == CMARK_NODE_BLOCK_QUOTE || type == CMARK_NODE_ITEM) chain.push_back(p);
    if (chain.size() > static_cast<size_t>(kMaxDivDepth)) return false;
  }
  std::reverse(chain.begin(), chain.end());
  return true;
}

}  // namespace

std::vector<DivLine> div_lines(const std::vector<cmark_node*>& paragraphs,
                               const std::vector<std::string>& lines, int offset,
                               const std::vector<bool>& in_span) {
  std::vector<DivLine> found;
  MarkReader marks(lines, offset);
  std::map<cmark_node*, int> containers;  // a number for each block quote and list item
  std::vector<cmark_node*> chain;
  const int last_line = static_cast<int>(lines.size());
  for (cmark_node* p : paragraphs) {
    const int first = cmark_node_get_start_line(p) + offset;
    int last = std::min(cmark_node_get_end_line(p) + offset, last_line);
    if (cmark_node_get_type(p) == CMARK_NODE_HEADING) --last;  // its underline
    if (first < 1 || !containers_of(p, chain)) continue;
    const int next = static_cast<int>(containers.size()) + 1;
    const int container =
        chain.empty() ? 0 : containers.try_emplace(chain.back(), next).first->second;
    int previous_fence = 0;  // the last candidate line that Pandoc may read as a fence
    for (int n = first; n <= last; ++n) {
      const std::string& line = lines[n - 1];
      if (in_span[n - 1] || line.find(":::") == std::string::npos) continue;
      const Marks m = marks.read(chain, chain.size(), n);
      const size_t start = std::min(line.find_first_not_of(" \t", m.end), line.size());
      if (line.compare(start, 3, ":::") != 0) continue;
      found.push_back({n, m.end, start - m.end, container, n == first || previous_fence == n - 1});
      if (start == m.end) previous_fence = n;
    }
  }
  return found;
}

}  // namespace weave
