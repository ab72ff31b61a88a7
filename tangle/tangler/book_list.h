// book/chapters.txt: the chapters in book order, one path per line; '#' starts a comment, anywhere
// on a line, blank lines are ignored. The weaver, measure.py and the renderer read it so too
// (tools.md Z4: the tangler read chapters/x#1.md whole, the others as chapters/x).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tangle {

struct ListedChapter {
  std::string path;  // relative to the root, as written
  int line;          // its line in chapters.txt, for errors
};

std::vector<ListedChapter> parse_book_list(std::string_view text);

}  // namespace tangle
