// The attribute list of a fence, Entangled style: ```{.cuda file=src/reduce/reduce.cu} or
// ```{.cuda #warp-sum}. All of the syntax the tangler accepts in a fence is in this pass.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tangle {

struct Attributes {
  bool braced = false;              // written as {...}; a plain ```cuda fence is never tangled
  std::string language;             // the first class, without its dot ("cuda"); "" when none
  std::optional<std::string> file;  // file=..., unquoted
  std::optional<std::string> id;    // #id, without the '#'
};

struct AttributeParse {
  Attributes attributes;
  std::string error;  // "" when the info string is well formed; else a sentence saying what to fix
};

// Parses a fence's info string (what follows the backticks on the opening line).
AttributeParse parse_attributes(std::string_view info);

// Characters allowed in a chunk id, in `#id` and in `<<id>>` alike.
bool is_id_char(char c);

}  // namespace tangle
