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
    Entry{"cuda", c_family},       Entry{"cu", c_family},        Entry{"cuh", c_family},
    Entry{"cpp", c_family},        Entry{"c++", c_family},       Entry{"cxx", c_family},
    Entry{"hpp", c_family},        Entry{"c", c_family},         Entry{"h", c_family},
    Entry{"cmake", hash_comment},  Entry{"sh", hash_comment},    Entry{"bash", hash_comment},
    Entry{"python", hash_comment}, Entry{"py", hash_comment},    Entry{"yaml", hash_comment},
    Entry{"yml", hash_comment},    Entry{"toml", hash_comment},  Entry{"make", hash_comment},
    Entry{"makefile", hash_comment}, Entry{"ini", hash_comment}, Entry{"javascript", slash_comment},
    Entry{"js", slash_comment},    Entry{"html", markup},        Entry{"xml", markup},
    Entry{"markdown", markup},     Entry{"md", markup},          Entry{"json", Language{}},
};

}  // namespace

Language language_of(std::string_view name) {
  for (const Entry& entry : table)
    if (entry.name == name) return entry.language;
  return Language{};
}

}  // namespace tangle
