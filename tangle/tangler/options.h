// The command line: tangle [--root DIR] [--check] [--quiet] [CHAPTER.md ...], read with CLI11.
#pragma once

#include <string>
#include <vector>

namespace tangle {

struct Options {
  std::string root = ".";  // the book's root: book/chapters.txt and src/ are under it
  bool check = false;      // compare src/ with the chapters; write nothing
  bool quiet = false;      // print errors only
  bool help = false;
  std::vector<std::string> chapters;  // when given, only these chapters (relative to the root)
};

struct OptionsParse {
  Options options;
  std::string error;  // "" when the command line is well formed
};

// `arguments` without the program's name.
OptionsParse parse_options(const std::vector<std::string>& arguments);

// What --help prints: the options, then the exit statuses.
std::string usage();

}  // namespace tangle
