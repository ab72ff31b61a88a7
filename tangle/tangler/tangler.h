// The whole in-memory tangle: chapters in, the files they make (or the errors) out. Touches no
// file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "chapter.h"
#include "diagnostic.h"
#include "expander.h"

namespace tangle {

struct TangledFile {
  std::string path;  // "src/reduce/reduce.cu", relative to the root
  std::string content;
  std::vector<std::string> chapters;  // the chapters it is tangled from, in book order
  int line = 0;                       // the fence line of its first block, in chapters.front()
};

struct Tangling {
  std::vector<TangledFile> files;  // in the order the book first mentions them; empty on error
  Diagnostics diagnostics;         // every error found, in book order
  Diagnostics warnings;            // said, and the tangle goes on (tangle_texts only)
};

// Indexes the chapters' blocks, checks the chunk graph, and expands every file.
Tangling tangle_chapters(const std::vector<Chapter>& chapters, const ExpandLimits& limits = {});

// Reads and tangles chapter texts given in memory: {name, text} pairs in book order.
struct ChapterText {
  std::string name;
  std::string text;
};
Tangling tangle_texts(const std::vector<ChapterText>& texts, const ExpandLimits& limits = {});

}  // namespace tangle
