// What the tangler needs to know about a block's language: its header comment and whether the
// compiler understands #line directives. The whole table is in languages.cpp.
#pragma once

#include <string>
#include <string_view>

namespace tangle {

struct Language {
  bool line_directives = false;  // C-family: #line N "chapter" keeps errors pointing at the chapter
  std::string comment_start;     // "" when the language has no comment we can use (JSON)
  std::string comment_end;       // for languages whose comments close ("-->")
};

// Looks up a language by its class name without the dot ("cuda", "cmake"). Unknown languages get
// neither a header nor #line directives: we do not know how to write a comment in them.
Language language_of(std::string_view name);

// "" when a block of `language` may be tangled to `path` (or either is unknown: no opinion); else
// the language the file's extension says, first the class to write ("cpp (.cpp)").
std::string language_mismatch(std::string_view language, std::string_view path);

}  // namespace tangle
