// Chapters are UTF-8. A byte that is not (a Latin-1 'é' saved by an old editor) is an error at its
// chapter line, and is replaced by U+FFFD before any pass sees it: neither the JSON the weaver
// writes (nlohmann refuses to dump invalid UTF-8) nor Pandoc downstream ever gets one.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"

namespace weave {

// The offset of the first byte that does not begin or continue a valid UTF-8 sequence
// (overlong forms, surrogates and code points past U+10FFFF are invalid too), or npos.
size_t invalid_utf8_at(std::string_view text);

// `text` with every invalid byte replaced by U+FFFD.
std::string replace_invalid_utf8(std::string_view text);

// Checks a file's lines (line 1 first): an error for each line with an invalid byte (the first
// few, then a count), and the line repaired as above. False if any line was invalid.
bool check_utf8_lines(std::vector<std::string>& lines, const std::string& file,
                      Diagnostics& diagnostics);

}  // namespace weave
