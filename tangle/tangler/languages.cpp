#include "languages.h"

#include <array>

namespace tangle {

namespace {

struct Entry {
  std::string_view name;
  Language language;
};

const Language c_family{true, "//", ""};
const Language hash_comment{false, "#", ""};
const Language slash_comment{false, "//", ""};
const Language markup{false, "<!--", " -->"};

const std::array table{
    Entry{"cuda", c_family},
    Entry{"cu", c_family},
    Entry{"cuh", c_family},
    Entry{"cpp", c_family},
    Entry{"c++", c_family},
    Entry{"cxx", c_family},
    Entry{"hpp", c_family},
    Entry{"c", c_family},
    Entry{"h", c_family},
    Entry{"cmake", hash_comment},
    Entry{"sh", hash_comment},
    Entry{"bash", hash_comment},
    Entry{"python", hash_comment},
    Entry{"py", hash_comment},
    Entry{"yaml", hash_comment},
    Entry{"yml", hash_comment},
    Entry{"toml", hash_comment},
    Entry{"make", hash_comment},
    Entry{"makefile", hash_comment},
    Entry{"ini", hash_comment},
    Entry{"javascript", slash_comment},
    Entry{"js", slash_comment},
    Entry{"html", markup},
    Entry{"xml", markup},
    Entry{"markdown", markup},
    Entry{"md", markup},
    Entry{"json", Language{}},
};

// File extensions and the block classes each accepts, the first the one to suggest. A header
// (.h, .cuh) may be C, C++ or CUDA; a .cu file must be CUDA, a .cpp file C++, and so on.
struct Extension {
  std::string_view extension;
  std::array<std::string_view, 6> languages;
};

const std::array extensions{
    Extension{".cu", {"cuda", "cu"}},
    Extension{".cuh", {"cuda", "cuh", "cu", "cpp", "c++", "hpp"}},
    Extension{".cpp", {"cpp", "c++", "cxx"}},
    Extension{".cc", {"cpp", "c++", "cxx"}},
    Extension{".cxx", {"cpp", "c++", "cxx"}},
    Extension{".hpp", {"cpp", "hpp", "c++", "cxx"}},
    Extension{".h", {"cpp", "c", "h", "hpp", "c++", "cuda"}},
    Extension{".c", {"c"}},
    Extension{".cmake", {"cmake"}},
    Extension{"CMakeLists.txt", {"cmake"}},
    Extension{".sh", {"sh", "bash"}},
    Extension{".py", {"python", "py"}},
    Extension{".json", {"json"}},
    Extension{".yaml", {"yaml", "yml"}},
    Extension{".yml", {"yaml", "yml"}},
    Extension{".toml", {"toml"}},
    Extension{".js", {"javascript", "js"}},
    Extension{".html", {"html"}},
    Extension{".md", {"markdown", "md"}},
};

}  // namespace

std::string language_mismatch(std::string_view language, std::string_view path) {
  if (language.empty()) return "";
  std::string_view name = path.substr(path.find_last_of('/') + 1);
  bool known = false;
  for (const Entry& entry : table) known = known || entry.name == language;
  if (!known) return "";
  for (const Extension& extension : extensions) {
    bool whole_name = extension.extension[0] != '.';
    if (whole_name ? name != extension.extension : !name.ends_with(extension.extension)) continue;
    for (std::string_view accepted : extension.languages)
      if (!accepted.empty() && accepted == language) return "";
    return std::string(extension.languages[0]) + " (" + std::string(extension.extension) + ")";
  }
  return "";
}

Language language_of(std::string_view name) {
  for (const Entry& entry : table)
    if (entry.name == name) return entry.language;
  return Language{};
}

}  // namespace tangle
