#include "utf8.h"

#include <cstdio>

namespace weave {
namespace {

// The length of the valid UTF-8 sequence at text[i], or 0 if there is none.
size_t sequence_at(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t length;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF)
    length = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;   // overlong
    if (c == 0xED) high = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;   // overlong
    if (c == 0xF4) high = 0x8F;  // past U+10FFFF
  } else {
    return 0;  // a continuation byte, C0, C1 or F5..FF
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

constexpr int kLinesShown = 5;  // per file: a whole file in Latin-1 needs one fix, not 300 errors

}  // namespace

size_t invalid_utf8_at(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t length = sequence_at(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::string replace_invalid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t length = sequence_at(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

bool check_utf8_lines(std::vector<std::string>& lines, const std::string& file,
                      Diagnostics& diagnostics) {
  int invalid = 0;
  int first_unshown = 0;
  for (size_t n = 0; n < lines.size(); ++n) {
    size_t at = invalid_utf8_at(lines[n]);
    if (at == std::string_view::npos) continue;
    if (++invalid <= kLinesShown) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(lines[n][at]));
      diagnostics.error(
          file, static_cast<int>(n) + 1,
          "the byte " + std::string(byte) + " at column " + std::to_string(at + 1) +
              " is not UTF-8: save the file as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)");
    } else if (first_unshown == 0) {
      first_unshown = static_cast<int>(n) + 1;
    }
    lines[n] = replace_invalid_utf8(lines[n]);
  }
  if (invalid > kLinesShown)
    diagnostics.error(
        file, first_unshown,
        std::to_string(invalid - kLinesShown) + " more line(s) from here on are not UTF-8 either");
  // A control character (a NUL, a form feed, a lone carriage return) is no text of a chapter and
  // would pass raw into the HTML (tools.md O12); the passes after this one see none.
  int controls = 0;
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string& line = lines[n];
    for (size_t at = 0; at < line.size(); ++at) {
      unsigned char c = static_cast<unsigned char>(line[at]);
      if ((c >= 0x20 && c != 0x7F) || c == '\t') continue;
      if (++controls <= kLinesShown) {
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", c);
        diagnostics.error(file, static_cast<int>(n) + 1,
                          "the control character " + std::string(byte) + " at column " +
                              std::to_string(at + 1) +
                              " cannot be in a chapter: remove it (only tabs are allowed)");
      }
      line.replace(at, 1, "\xEF\xBF\xBD");
      at += 2;
    }
  }
  return invalid == 0 && controls == 0;
}

}  // namespace weave
