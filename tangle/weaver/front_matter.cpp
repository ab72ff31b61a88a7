#include "front_matter.h"

namespace weave {

FrontMatter read_front_matter(const std::vector<std::string>& lines, const std::string& file,
                              Diagnostics& diagnostics) {
  std::string text;
  for (const std::string& line : lines) text.append(line).push_back('\n');
  FrontMatter fm = front_matter::read(text);
  for (const front_matter::Problem& problem : fm.errors)
    diagnostics.error(file, problem.line, problem.message);
  return fm;
}

}  // namespace weave
