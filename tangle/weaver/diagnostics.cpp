#include "diagnostics.h"

namespace weave {
namespace {

// A diagnostic is one line: a span quoted from a chapter may wrap, so its line breaks become
// spaces.
std::string one_line(std::string message) {
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  return message;
}

}  // namespace

void Diagnostics::error(std::string file, int line, std::string message) {
  message = one_line(std::move(message));
  if (said_.emplace(true, file, line, message).second)
    errors_.push_back({std::move(file), line, std::move(message)});
}

void Diagnostics::warning(std::string file, int line, std::string message) {
  message = one_line(std::move(message));
  if (said_.emplace(false, file, line, message).second)
    warnings_.push_back({std::move(file), line, std::move(message)});
}

std::string where(const Diagnostic& d) {
  return d.line > 0 ? d.file + ":" + std::to_string(d.line) : d.file;
}

// One write: std::cerr is unbuffered, and 190 000 errors (as many stray ::: lines in 1 MB) cost a
// second in write calls of a few bytes each.
void Diagnostics::print(std::ostream& out) const {
  std::string text;
  for (const auto& d : errors_) text += where(d) + ": error: " + d.message + "\n";
  for (const auto& d : warnings_) text += where(d) + ": warning: " + d.message + "\n";
  out << text << std::flush;
}

}  // namespace weave
