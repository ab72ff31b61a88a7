#include "options.h"

namespace tangle {

const char* const kUsage =
    "usage: tangle [--root DIR] [--check] [--quiet] [CHAPTER.md ...]\n"
    "  Tangles the chapters listed in DIR/book/chapters.txt (or only the CHAPTER.md given,\n"
    "  relative to DIR) into DIR/src/.\n"
    "  --root DIR  the book's root (default: the current folder)\n"
    "  --check     write nothing; name every file of src/ out of step with the chapters\n"
    "  --quiet     print errors only\n"
    "exit status: 0 done (or in step), 1 out of step (--check), 2 errors (nothing written)\n";

OptionsParse parse_options(const std::vector<std::string>& arguments) {
  OptionsParse parse;
  Options& options = parse.options;
  bool only_paths = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (only_paths || argument.empty() || argument[0] != '-') {
      options.chapters.push_back(argument);
    } else if (argument == "--") {
      only_paths = true;
    } else if (argument == "--check") {
      options.check = true;
    } else if (argument == "--quiet" || argument == "-q") {
      options.quiet = true;
    } else if (argument == "--help" || argument == "-h") {
      options.help = true;
    } else if (argument == "--root") {
      if (i + 1 == arguments.size()) {
        parse.error = "--root needs a folder: tangle --root path/to/book";
        return parse;
      }
      options.root = arguments[++i];
    } else if (argument.starts_with("--root=")) {
      options.root = argument.substr(7);
    } else {
      parse.error = "unknown option " + argument + ": see tangle --help";
      return parse;
    }
  }
  if (options.root.empty()) parse.error = "--root needs a folder: tangle --root path/to/book";
  return parse;
}

}  // namespace tangle
