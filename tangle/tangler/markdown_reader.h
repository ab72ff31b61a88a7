// The Markdown-facing pass: chapter text in, tangled blocks and errors out. No file system; the
// fuzzer drives it directly (tests/tangle/fuzz_tangle.cpp).
#pragma once

#include <string_view>

#include "chapter.h"
#include "diagnostic.h"

namespace tangle {

struct ChapterReading {
  Chapter chapter;
  Diagnostics diagnostics;  // errors: nothing is written
  Diagnostics warnings;     // said, and the tangle goes on
};

// Reads one chapter. `name` is how errors and #line directives name it. CRLF and lone CR line
// endings are read as LF; YAML front matter is skipped with its lines kept for numbering.
ChapterReading read_chapter(std::string_view name, std::string_view text);

}  // namespace tangle
