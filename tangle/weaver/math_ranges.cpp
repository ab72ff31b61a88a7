#include "math_ranges.h"

#include <cctype>

namespace weave {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

// One pass; maths that opens before a code span runs over it, as in Pandoc, where the maths is
// read first. An inline opening looks only as far as the next $, and a $$ with no $$ after it
// means none later has one either: linear time.
CodeRanges math_ranges(const std::string& s, const CodeRanges& code) {
  CodeRanges maths;
  const size_t n = s.size();
  auto next_code = code.begin();
  auto code_at = [&](size_t i) {  // the code span that starts at i, if any
    while (next_code != code.end() && next_code->first < i) ++next_code;
    return next_code != code.end() && next_code->first == i ? next_code->second : 0;
  };
  bool display_closes = true;  // a later $$ may still exist
  for (size_t i = 0; i < n; ++i) {
    if (size_t end = code_at(i)) {
      i = end - 1;
      continue;
    }
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    if (s[i] != '$') continue;
    if (i + 1 < n && s[i + 1] == '$') {
      size_t close = display_closes ? s.find("$$", i + 2) : std::string::npos;
      if (close == std::string::npos) {
        display_closes = false;
        ++i;
        continue;
      }
      maths.emplace_back(i, close + 2);
      i = close + 1;
      continue;
    }
    if (i + 1 >= n || is_space(s[i + 1])) continue;
    // Inline maths holds no unescaped $: the next one closes it, or this $ opens nothing.
    size_t k = i + 1;
    while (k < n && s[k] != '$') k += s[k] == '\\' ? 2 : 1;
    if (k >= n) continue;
    if (is_space(s[k - 1]) || (k + 1 < n && is_digit(s[k + 1]))) continue;
    maths.emplace_back(i, k + 1);
    i = k;
  }
  return maths;
}

}  // namespace weave

namespace weave {

// One pass with a stack for the parentheses, as closing_brackets does for brackets: linear in the
// text, however many "](" it holds.
CodeRanges link_destinations(const std::string& s, const std::vector<size_t>& closes) {
  std::vector<size_t> paren_close(s.size(), std::string::npos), open;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    if (s[i] == '(') open.push_back(i);
    if (s[i] == ')' && !open.empty()) {
      paren_close[open.back()] = i;
      open.pop_back();
    }
    if (s.compare(i, 2, "\n\n") == 0) open.clear();
  }
  std::vector<bool> ends_a_text(s.size(), false);
  for (size_t close : closes)
    if (close != std::string::npos) ends_a_text[close] = true;
  CodeRanges destinations;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] != ']' || s[i + 1] != '(' || !ends_a_text[i]) continue;
    if (!destinations.empty() && i < destinations.back().second) continue;  // inside the last one
    if (paren_close[i + 1] != std::string::npos)
      destinations.emplace_back(i + 2, paren_close[i + 1]);
  }
  return destinations;
}

}  // namespace weave
