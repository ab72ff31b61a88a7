#include "reference.h"

#include "attributes.h"

namespace tangle {

std::optional<Reference> parse_reference(std::string_view line) {
  size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return std::nullopt;
  size_t end = line.find_last_not_of(" \t") + 1;
  std::string_view body = line.substr(start, end - start);
  if (body.size() < 5 || !body.starts_with("<<") || !body.ends_with(">>")) return std::nullopt;
  std::string_view id = body.substr(2, body.size() - 4);
  for (char c : id)
    if (!is_id_char(c)) return std::nullopt;
  return Reference{std::string(line.substr(0, start)), std::string(id)};
}

}  // namespace tangle
