#include "diagnostic.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

namespace tangle {

std::string format(const Diagnostic& diagnostic) {
  std::string text = diagnostic.file;
  if (diagnostic.line > 0) text += ":" + std::to_string(diagnostic.line);
  return text + ": " + diagnostic.message;
}

void sort_in_book_order(Diagnostics& diagnostics, const std::vector<std::string>& file_order) {
  std::unordered_map<std::string, size_t> rank;
  for (size_t i = 0; i < file_order.size(); ++i) rank.emplace(file_order[i], i);
  auto rank_of = [&](const std::string& file) {
    auto found = rank.find(file);
    return found == rank.end() ? file_order.size() : found->second;
  };
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [&](const Diagnostic& a, const Diagnostic& b) {
                     size_t rank_a = rank_of(a.file), rank_b = rank_of(b.file);
                     if (rank_a != rank_b) return rank_a < rank_b;
                     return a.line < b.line;
                   });
}

void drop_repeats(Diagnostics& diagnostics) {
  std::set<std::tuple<std::string, int, std::string>> seen;
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    return !seen.emplace(d.file, d.line, d.message).second;
  });
}

}  // namespace tangle
