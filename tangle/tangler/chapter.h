// What the Markdown reader hands to the rest of the tangler: a chapter's tangled blocks, in order.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tangle {

struct Block {
  std::string chapter;              // the chapter as the book names it: "chapters/3.1-reduction.md"
  int fence_line = 0;               // line of the opening fence (1-based)
  std::string language;             // "cuda", "cmake", ...
  std::optional<std::string> file;  // file= (a block tangles to a file ...)
  std::optional<std::string> id;    // ... or is a named chunk, never both
  std::vector<std::string> lines;   // content, without newlines; line i is at fence_line + 1 + i
};

struct Chapter {
  std::string name;           // as in book/chapters.txt
  std::string src_folder;     // front matter `src:`; "" when absent
  int src_line = 0;           // where `src:` is written
  std::vector<Block> blocks;  // only blocks with file= or #id
};

}  // namespace tangle
