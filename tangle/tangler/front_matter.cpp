#include "front_matter.h"


namespace tangle {

namespace {

std::string_view trim(std::string_view text) {
  const char* space = " \t";
  size_t first = text.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

// The value of a one-line YAML scalar: `reduce`, `"reduce"`, `'reduce'`, `reduce  # comment`.
std::string scalar_value(std::string_view value) {
  value = trim(value);
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) {
    size_t close = value.find(value.front(), 1);
    if (close != std::string_view::npos) return std::string(value.substr(1, close - 1));
  }
  size_t comment = value.find(" #");
  if (comment == std::string_view::npos) comment = value.find("\t#");
  return std::string(trim(value.substr(0, comment)));
}

}  // namespace

FrontMatter strip_front_matter(std::string& text) {
  FrontMatter front;
  size_t pos = 0;
  for (int line = 1;; ++line) {
    size_t end = text.find('\n', pos);
    size_t next = end == std::string::npos ? text.size() : end + 1;
    std::string_view content(text.data() + pos, next - pos);
    std::string_view fence = trim(content.substr(0, content.find('\n')));
    bool at_column_one = content.substr(0, 3) == fence.substr(0, 3);
    if (line == 1) {
      if (fence != "---" || !at_column_one) return front;
    } else if ((fence == "---" || fence == "...") && at_column_one) {
      // Blank everything up to and including the closing fence, keeping the newlines.
      size_t newlines = 0;
      for (size_t i = 0; i < next; ++i) newlines += text[i] == '\n';
      text = std::string(newlines, '\n') + text.substr(next);
      front.present = true;
      return front;
    } else if (content.substr(0, 4) == "src:" && front.src_line == 0) {
      front.src_folder = scalar_value(content.substr(4, content.find('\n') - 4));
      front.src_line = line;
    }
    if (end == std::string::npos) return FrontMatter{};  // never closed: not front matter
    pos = next;
  }
}

}  // namespace tangle
