// A diagnostic is one line the reader can act on: "chapters/x.md:LINE: what is wrong and what to
// do".
#pragma once

#include <string>
#include <vector>

namespace tangle {

struct Diagnostic {
  std::string file;     // the chapter (or book/chapters.txt) as the book names it
  int line = 0;         // 1-based; 0 when the problem has no line (a file that cannot be read)
  std::string message;  // a sentence: what is wrong, then what to do
};

using Diagnostics = std::vector<Diagnostic>;

// "file:line: message", or "file: message" when there is no line.
std::string format(const Diagnostic& diagnostic);

// Orders diagnostics by the files' order in `file_order` (unknown files last), then by line, so
// the reader meets them in book order. Keeps the relative order of equal keys.
void sort_in_book_order(Diagnostics& diagnostics, const std::vector<std::string>& file_order);

// Keeps the first of diagnostics with the same file, line and message (tools.md P9: an alias of
// a YAML anchor gave the same error once per use).
void drop_repeats(Diagnostics& diagnostics);

}  // namespace tangle
