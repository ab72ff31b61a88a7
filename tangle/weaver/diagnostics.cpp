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

void Diagnostics::print(std::ostream& out) const {
  for (const auto& d : errors_) out << where(d) << ": error: " << d.message << "\n";
  for (const auto& d : warnings_) out << where(d) << ": warning: " << d.message << "\n";
}

}  // namespace weave
