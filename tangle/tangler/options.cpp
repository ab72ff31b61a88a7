#include "options.h"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace tangle {

namespace {

// The one description of the command line; `options` receives what is parsed.
void describe(CLI::App& app, Options& options) {
  app.description(
      "Tangles the chapters listed in DIR/book/chapters.txt (or only the CHAPTER.md given, "
      "relative to DIR) into DIR/src/.");
  app.add_option("--root", options.root, "the book's root (default: the current folder)")
      ->option_text("DIR");
  app.add_flag("--check", options.check,
               "write nothing; name every file of src/ out of step with the chapters");
  app.add_flag("-q,--quiet", options.quiet, "print errors only");
  app.add_option("chapters", options.chapters, "only these chapters (relative to DIR)")
      ->option_text("CHAPTER.md ...");
  app.footer(
      "exit status: 0 done (or in step), 1 out of step (--check), 2 errors (nothing written)");
}

}  // namespace

OptionsParse parse_options(const std::vector<std::string>& arguments) {
  OptionsParse parse;
  CLI::App app{"", "tangle"};
  describe(app, parse.options);
  std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());  // as CLI11 takes them
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    parse.options.help = true;
    return parse;
  } catch (const CLI::ExtrasError&) {
    auto unknown = std::find_if(arguments.begin(), arguments.end(), [&](const std::string& a) {
      return a.starts_with("-") && a != "--" && !app.get_option_no_throw(a.substr(0, a.find('=')));
    });
    parse.error = "unknown option " + (unknown == arguments.end() ? arguments.back() : *unknown) +
                  ": see tangle --help";
    return parse;
  } catch (const CLI::ParseError& error) {
    parse.error = error.what();
    if (parse.error.find("--root") != std::string::npos)
      parse.error = "--root needs a folder: tangle --root path/to/book";
    else
      parse.error += ": see tangle --help";
    return parse;
  }
  if (parse.options.root.empty()) parse.error = "--root needs a folder: tangle --root path/to/book";
  return parse;
}

std::string usage() {
  Options ignored;
  CLI::App app{"", "tangle"};
  describe(app, ignored);
  return app.help();
}

}  // namespace tangle
