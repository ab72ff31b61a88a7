// tangle: the book's chapters in, src/ out. See tangle/README.md.
#include <iostream>
#include <string>
#include <vector>

#include "options.h"
#include "run.h"

int main(int argc, char** argv) {
  tangle::OptionsParse parse =
      tangle::parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (!parse.error.empty()) {
    std::cerr << "tangle: " << parse.error << "\n";
    return tangle::kErrors;
  }
  if (parse.options.help) {
    std::cout << tangle::usage();
    return tangle::kDone;
  }
  return tangle::run(parse.options, std::cout, std::cerr);
}
