#include "line_shapes.h"

#include <algorithm>

namespace weave {
namespace {

constexpr const char* kSpace = " \t";

size_t skip_space(const std::string& line, size_t from) {
  size_t i = line.find_first_not_of(kSpace, from);
  return i == std::string::npos ? line.size() : i;
}

// After leading white space, three or more colons: the offset just past them, else npos.
size_t after_colons(const std::string& line) {
  size_t start = skip_space(line, 0);
  if (line.compare(start, 3, ":::") != 0) return std::string::npos;
  size_t end = line.find_first_not_of(':', start);
  return end == std::string::npos ? line.size() : end;
}

}  // namespace

bool is_div_close(const std::string& line) {
  size_t i = after_colons(line);
  return i != std::string::npos && skip_space(line, i) == line.size();
}

bool is_div_open(const std::string& line) {
  // Three colons, then anything but white space (a fourth colon counts, as it did for the
  // regular expression ^\s*:::+\s*\S.*$).
  size_t start = skip_space(line, 0);
  return after_colons(line) != std::string::npos && skip_space(line, start + 3) < line.size();
}

bool is_directive(const std::string& line, const std::string& name) {
  size_t i = after_colons(line);
  if (i == std::string::npos) return false;
  i = skip_space(line, i);
  if (line.compare(i, name.size(), name) != 0) return false;
  i = skip_space(line, i + name.size());
  if (line.compare(i, 3, ":::") != 0) return false;
  i = line.find_first_not_of(':', i);
  return i == std::string::npos || skip_space(line, i) == line.size();
}

bool is_claim_opening(const std::string& line) { return has_div_class(line, "claim"); }

bool has_div_class(const std::string& line, const std::string& name) {
  size_t i = after_colons(line);
  if (i == std::string::npos) return false;
  i = skip_space(line, i);
  if (i >= line.size() || line[i] != '{') return false;
  const size_t close = line.find('}', i);
  const std::string claim = "." + name;
  for (size_t c = line.find(claim, i + 1); c != std::string::npos && c < close;
       c = line.find(claim, c + 1)) {
    size_t after = c + claim.size();
    if (after < line.size() && (line[after] == ' ' || line[after] == '\t' || line[after] == '}'))
      return true;
  }
  return false;
}

std::optional<std::string> quoted_attribute(const std::string& line, const std::string& key) {
  const size_t open = std::min(line.find(key + "=\""), line.find(key + "='"));
  if (open == std::string::npos) return std::nullopt;
  const size_t value = open + key.size() + 2;
  const size_t close = line.find(line[value - 1], value);
  if (close == std::string::npos) return std::nullopt;
  return line.substr(value, close - value);
}

}  // namespace weave
