// A reference is `<<chunk-name>>` alone on a line (whitespace around it allowed). The whitespace
// before it is the indentation every included line gets.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tangle {

struct Reference {
  std::string indent;  // the whitespace before "<<", kept as written (tabs stay tabs)
  std::string id;
};

std::optional<Reference> parse_reference(std::string_view line);

}  // namespace tangle
