// The tangler's use of the chapter's front matter (read by the shared reader in
// tangle/front_matter/): the `src:` key (the chapter's folder under src/) and any error in the
// block; its lines are blanked so the Markdown parser never sees them while every line keeps its
// number.
#pragma once

#include <string>
#include <vector>

#include "diagnostic.h"

namespace tangle {

struct FrontMatter {
  bool present = false;
  std::string src_folder;  // the value of `src:`; empty when absent
  int src_line = 0;        // the line of `src:`, for errors about the folder
  std::vector<std::pair<int, std::string>> errors;  // (line, message), as the shared reader says
};

// Reads the front matter of `text` (LF line endings) and replaces each of its lines, fences
// included, with an empty line. Returns what it read.
FrontMatter strip_front_matter(std::string& text);

}  // namespace tangle
