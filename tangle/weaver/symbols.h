// The book's symbols (book/symbols.json): each one's LaTeX form, meaning, unit and source, an
// expression over machine.json such as `machine : copy_bandwidth`. A chapter declares the
// symbols its box shows; appendix B lists them all with this generation's values.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "diagnostics.h"
#include "evaluate.h"
#include "expression.h"

namespace weave {

struct SymbolDef {
  std::string name;     // B_copy
  std::string latex;    // B_\text{copy}
  std::string meaning;  // measured copy bandwidth, bytes read plus written per second
  std::string unit;     // B/s: the unit its value is shown in
  std::string source;   // machine : copy_bandwidth, or an expression over machine values
  ExprPtr expr;         // source, parsed
};

class SymbolTable {
 public:
  // `shown` names the file in messages (book/symbols.json).
  static SymbolTable read(const std::filesystem::path& path, const std::string& shown,
                          Diagnostics& diagnostics);
  const SymbolDef* find(const std::string& name) const;
  const std::vector<SymbolDef>& all() const { return symbols_; }
  std::string names() const;  // "B_copy, F_fp32, ..." for messages
  // False when the file could not be read (an error said once): a chapter's symbols are then not
  // each "unknown".
  bool readable() const { return readable_; }

 private:
  std::vector<SymbolDef> symbols_;
  bool readable_ = true;
};

// A symbol's value on this generation. The declared unit is the one shown: the source gives the
// number (2 * memory clock * bus bits / 8 is a byte rate even though its parts are a clock and
// bits).
Value symbol_value(const SymbolDef& symbol, const Scope& scope);

// symbol -> (chapter id, chapter basename) of every chapter that declares it, in book order.
using SymbolUsers = std::map<std::string, std::vector<std::pair<std::string, std::string>>>;

// Appendix B's table (::: symbols-table :::): every symbol, its meaning, unit, source, this
// generation's value and the chapters that use it, linked to their pages (<basename>.html).
std::vector<std::string> render_symbols_table(const SymbolTable& table, const SymbolUsers& users,
                                              const Scope& scope, const std::string& file, int line,
                                              Diagnostics& diagnostics);

}  // namespace weave
