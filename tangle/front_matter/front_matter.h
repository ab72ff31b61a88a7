// A chapter's YAML front matter, shared by the tangler and the weaver (tangle/measure/measure.py
// applies the same rules in Python; book/SYNTAX.md states them). The block is a first line "---"
// and the next line "---" or "...", each at column one; between them, YAML read by yaml-cpp. Every
// scalar is kept as written (no number or boolean conversion); `~`, `null` or nothing is absent.
// Each field and each error names its line in the chapter, so errors read chapter.md:LINE.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace front_matter {

struct Named {
  std::string name;
  int line = 0;
};

struct KernelPoint {
  std::string name;   // a result key, as written (normalised later)
  std::string flops;  // an expression of numbers, or empty: take the record's `flops`
  std::string bytes;  // likewise, `bytes`
  std::string
      figure;  // empty: the chapter's figure (roofline:ID); else its named figure roofline:ID/NAME
  int line = 0;
};

struct Problem {
  int line = 0;
  std::string message;  // what is wrong and what to write instead
};

struct FrontMatter {
  bool present = false;  // a closed block at the top (it may still hold errors)
  int closing_line = 0;  // the closing "---" or "..."
  int body_line = 1;     // the first line after it; 1 when there is no front matter
  std::string id, title, src;
  int id_line = 0, title_line = 0, src_line = 0;  // 0: not written
  std::vector<Named> symbols;
  std::vector<KernelPoint> kernels;
  std::vector<Named> profile;
  std::vector<Problem> errors;  // in line order; empty when the front matter is well formed
};

// Reads the front matter of a chapter's text (LF or CRLF line endings; a byte-order mark is the
// caller's to remove). No front matter at all is no error; one opened and never closed is.
FrontMatter read(std::string_view text);

// The text's lines, without their '\n' (a '\r' before it is kept: the caller decides); views
// into `text`. Shared with the tangler's Markdown reader.
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace front_matter
