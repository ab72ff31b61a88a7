// Errors and warnings, each naming the file and line the author can open.
// The weaver gathers every error before it gives up, so one run shows all that is wrong.
#pragma once
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace weave {

struct Diagnostic {
  std::string file;     // chapters/3.1-reduction.md, book/measurements/h200/3.1.json, ...
  int line = 0;         // 0: the whole file
  std::string message;  // what is wrong and what to do
};

class Diagnostics {
 public:
  // The same error or warning at the same place is kept once (tools.md P9: a front matter's YAML
  // alias gave one error per use).
  void error(std::string file, int line, std::string message);
  void warning(std::string file, int line, std::string message);
  bool has_errors() const { return !errors_.empty(); }
  const std::vector<Diagnostic>& errors() const { return errors_; }
  const std::vector<Diagnostic>& warnings() const { return warnings_; }
  // Prints "file:line: message", errors first, in the order they were found.
  void print(std::ostream& out) const;

 private:
  std::vector<Diagnostic> errors_;
  std::vector<Diagnostic> warnings_;
  std::set<std::tuple<bool, std::string, int, std::string>> said_;  // (error?, file, line, text)
};

std::string where(const Diagnostic& d);  // "file:line" or "file"

}  // namespace weave
