#include "front_matter.h"

#include <algorithm>

#include "front_matter/front_matter.h"

namespace tangle {

FrontMatter strip_front_matter(std::string& text) {
  front_matter::FrontMatter read = front_matter::read(text);
  FrontMatter front;
  front.present = read.present;
  front.src_folder = read.src;
  front.src_line = read.src_line;
  for (front_matter::Problem& problem : read.errors)
    front.errors.emplace_back(problem.line, std::move(problem.message));
  if (!read.present) return front;
  // Blank everything up to and including the closing fence, keeping the newlines.
  size_t pos = 0;
  for (int line = 0; line < read.closing_line && pos != std::string::npos; ++line) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  size_t end = pos == std::string::npos ? text.size() : pos;
  size_t newlines = static_cast<size_t>(std::count(text.begin(), text.begin() + end, '\n'));
  text = std::string(newlines, '\n') + text.substr(end);
  return front;
}

}  // namespace tangle
