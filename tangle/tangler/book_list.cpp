#include "book_list.h"

namespace tangle {

std::vector<ListedChapter> parse_book_list(std::string_view text) {
  std::vector<ListedChapter> chapters;
  int line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    line = line.substr(0, line.find('#'));
    pos = end + 1;
    ++line_number;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    size_t last = line.find_last_not_of(" \t\r");
    chapters.push_back({std::string(line.substr(first, last - first + 1)), line_number});
  }
  return chapters;
}

}  // namespace tangle
