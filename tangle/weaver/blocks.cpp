#include "blocks.h"

#include <cmark.h>

#include <algorithm>
#include <memory>
#include <optional>

namespace weave {
namespace {

using Document = std::unique_ptr<cmark_node, decltype(&cmark_node_free)>;
using Iterator = std::unique_ptr<cmark_iter, decltype(&cmark_iter_free)>;

// The run of fence characters at `column` (1-based, where cmark puts a fenced block), or "" for
// an indented block (cmark gives the column of its content, which may itself look like a fence:
// then the text there is the block's first content line).
std::string fence_at(const std::string& line, int column, const char* literal) {
  if (column < 1 || static_cast<size_t>(column) > line.size()) return "";
  const char c = line[column - 1];
  if (c != '`' && c != '~') return "";
  const std::string at = line.substr(column - 1);
  const std::string content = literal ? literal : "";
  if (content.substr(0, content.find('\n')) == at) return "";
  size_t run = std::min(at.find_first_not_of(c), at.size());
  return run >= 3 ? std::string(run, c) : "";
}

// Does `line` close `fence`: after its containers' marks (spaces, '>'), as many fence characters
// or more, then only white space?
bool closes(const std::string& line, const std::string& fence) {
  size_t i = line.find_first_not_of(" \t>");
  if (i == std::string::npos) return false;
  size_t j = std::min(line.find_first_not_of(fence[0], i), line.size());
  return j - i >= fence.size() && line.find_first_not_of(" \t", j) == std::string::npos;
}

// cmark places an inline code node at its text, inside the backticks: as many of them again on
// each side (the closing run is as long as the opening one).
std::optional<CodeSpan> code_span(const std::vector<std::string>& lines, cmark_node* node,
                                  int offset) {
  CodeSpan span{cmark_node_get_start_line(node) + offset, cmark_node_get_start_column(node),
                cmark_node_get_end_line(node) + offset, cmark_node_get_end_column(node)};
  const int last = static_cast<int>(lines.size());
  if (span.line < 1 || span.end_line > last || span.column < 1) return std::nullopt;
  const std::string& first = lines[span.line - 1];
  int run = 0;
  while (span.column - 1 - run >= 1 && static_cast<size_t>(span.column - 1 - run) <= first.size() &&
         first[span.column - 2 - run] == '`')
    ++run;
  if (run == 0) return std::nullopt;
  span.column -= run;
  span.end_column += run;
  return span;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> code_ranges(const std::vector<CodeSpan>& spans,
                                                   const std::string& paragraph, int first_line) {
  std::vector<size_t> starts = {0};  // the offset of each of its lines
  for (size_t i = paragraph.find('\n'); i != std::string::npos; i = paragraph.find('\n', i + 1))
    starts.push_back(i + 1);
  const int last_line = first_line + static_cast<int>(starts.size()) - 1;
  auto offset = [&](int line, int column) {
    if (line < first_line) return size_t{0};
    if (line > last_line) return paragraph.size();
    return std::min(starts[line - first_line] + column - 1, paragraph.size());
  };
  std::vector<std::pair<size_t, size_t>> ranges;
  // Spans are in order and apart, so their ends are in order too: the first that ends in or after
  // the paragraph, found by halving.
  auto it = std::lower_bound(spans.begin(), spans.end(), first_line,
                             [](const CodeSpan& s, int line) { return s.end_line < line; });
  for (; it != spans.end() && it->line <= last_line; ++it) {
    size_t begin = offset(it->line, it->column), end = offset(it->end_line, it->end_column + 1);
    if (begin < end) ranges.emplace_back(begin, end);
  }
  return ranges;
}

Blocks read_blocks(const std::vector<std::string>& lines, int body_line) {
  Blocks blocks;
  blocks.roles.assign(lines.size(), LineRole::text);
  const int offset = std::max(body_line, 1) - 1;  // chapter line = body line + offset
  std::string body;
  for (size_t i = offset; i < lines.size(); ++i) body += lines[i] + "\n";
  const int last = static_cast<int>(lines.size());
  // CMARK_OPT_SOURCEPOS: without it cmark 0.30 places an inline node after a line break wrongly
  Document document(cmark_parse_document(body.data(), body.size(), CMARK_OPT_SOURCEPOS),
                    cmark_node_free);
  Iterator iterator(cmark_iter_new(document.get()), cmark_iter_free);
  std::vector<cmark_node*> paragraphs;             // and setext headings: where divs may be
  std::vector<bool> in_span(lines.size(), false);  // a line a code span or raw HTML runs into
  for (cmark_event_type event; (event = cmark_iter_next(iterator.get())) != CMARK_EVENT_DONE;) {
    cmark_node* node = cmark_iter_get_node(iterator.get());
    if (event != CMARK_EVENT_ENTER) continue;
    const cmark_node_type type = cmark_node_get_type(node);
    const int start = cmark_node_get_start_line(node) + offset;
    int end = std::min(cmark_node_get_end_line(node) + offset, last);
    if (start < 1 || start > last) continue;
    if (type == CMARK_NODE_CODE || type == CMARK_NODE_HTML_INLINE)
      for (int n = start + 1; n <= end; ++n) in_span[n - 1] = true;
    if (type == CMARK_NODE_CODE) {
      if (auto span = code_span(lines, node, offset)) blocks.code_spans.push_back(*span);
      continue;
    }
    if (type == CMARK_NODE_PARAGRAPH || (type == CMARK_NODE_HEADING && end > start))
      paragraphs.push_back(node);
    // One line: an ATX heading (a setext heading has its underline too).
    if (type == CMARK_NODE_HEADING && cmark_node_parent(node) == document.get() && start == end) {
      blocks.roles[start - 1] = LineRole::heading;
      blocks.has_heading = true;
      continue;
    }
    const char* literal = cmark_node_get_literal(node);
    const bool comment =
        type == CMARK_NODE_HTML_BLOCK && literal && std::string(literal).starts_with("<!--");
    if (type != CMARK_NODE_CODE_BLOCK && !comment) continue;
    if (comment)  // cmark 0.30 ends a comment's block a line early when --> closes it
      for (int n = start; n <= last; ++n)
        if (lines[n - 1].find("-->") != std::string::npos) {
          end = std::max(end, n);
          break;
        }
    for (int n = start; n <= end; ++n) blocks.roles[n - 1] = LineRole::code;
    if (type != CMARK_NODE_CODE_BLOCK) continue;
    const std::string fence =
        fence_at(lines[start - 1], cmark_node_get_start_column(node), literal);
    if (fence.empty()) continue;  // an indented block
    // cmark ends a fence left open at the end of its container: a closed one ends on a closing
    // fence line.
    blocks.fences.push_back({start, fence, end > start && closes(lines[end - 1], fence)});
  }
  blocks.div_lines = div_lines(paragraphs, lines, offset, in_span);
  return blocks;
}

}  // namespace weave
