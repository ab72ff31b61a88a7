// YAML front matter: a leading "---" line up to the next "---" or "..." line. The tangler reads one
// key from it, `src:` (the chapter's folder under src/), and blanks the rest so the Markdown parser
// never sees it while every line keeps its number.
#pragma once

#include <string>
#include <string_view>

namespace tangle {

struct FrontMatter {
  bool present = false;
  std::string src_folder;  // the value of `src:`, unquoted; empty when absent
  int src_line = 0;        // the line of `src:`, for errors about the folder
};

// Reads the front matter of `text` (LF line endings) and replaces each of its lines, fences
// included, with an empty line. Returns what it read.
FrontMatter strip_front_matter(std::string& text);

}  // namespace tangle
