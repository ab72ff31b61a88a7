#include "symbols.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "box.h"
#include "file_reading.h"

namespace weave {

SymbolTable SymbolTable::read(const std::filesystem::path& path, const std::string& shown,
                              Diagnostics& diagnostics) {
  SymbolTable table;
  std::string why;
  auto bytes = read_regular_file(path, why);
  if (!bytes) {
    diagnostics.error(shown, 0,
                      (why == "does not exist" ? std::string("is missing") : why) +
                          ": it defines the book's symbols (see appendix B)");
    table.readable_ = false;
    return table;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(*bytes);
  } catch (const std::exception& e) {
    diagnostics.error(shown, 0, std::string("is not valid JSON: ") + e.what());
    table.readable_ = false;
    return table;
  }
  if (!j.contains("symbols") || !j["symbols"].is_array()) {
    diagnostics.error(shown, 0, "needs a \"symbols\" array");
    table.readable_ = false;
    return table;
  }
  int number = 0;
  for (const auto& entry : j["symbols"]) {
    ++number;
    if (!entry.is_object()) {
      diagnostics.error(shown, 0,
                        "symbol number " + std::to_string(number) +
                            " is not an object: write it as "
                            "{\"symbol\": ..., \"latex\": ..., \"meaning\": ..., \"unit\": ..., "
                            "\"source\": ...}");
      continue;
    }
    SymbolDef s;
    for (auto [field, target] : {std::pair{"symbol", &s.name},
                                 {"latex", &s.latex},
                                 {"meaning", &s.meaning},
                                 {"unit", &s.unit},
                                 {"source", &s.source}}) {
      if (entry.contains(field) && entry[field].is_string())
        *target = entry[field].get<std::string>();
      else
        diagnostics.error(shown, 0,
                          "symbol " +
                              (s.name.empty() ? "number " + std::to_string(number) : s.name) +
                              " needs a string \"" + field + "\"");
    }
    std::string error;
    if (!parse_unit(s.unit))
      diagnostics.error(shown, 0, "symbol " + s.name + ": unknown unit \"" + s.unit + "\"");
    auto expr = parse_expression(s.source, false, error);
    if (!expr)
      diagnostics.error(shown, 0, "symbol " + s.name + ": its source does not parse: " + error);
    else
      s.expr = *expr;
    if (table.find(s.name)) diagnostics.error(shown, 0, "symbol " + s.name + " is defined twice");
    table.symbols_.push_back(std::move(s));
  }
  return table;
}

const SymbolDef* SymbolTable::find(const std::string& name) const {
  for (const auto& s : symbols_)
    if (s.name == name) return &s;
  return nullptr;
}

std::string SymbolTable::names() const {
  std::string out;
  for (const auto& s : symbols_) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

Value symbol_value(const SymbolDef& symbol, const Scope& scope) {
  if (!symbol.expr)
    return {Value::State::error, 0, {}, "symbol " + symbol.name + " has no valid source"};
  Value v = scope.evaluate(*symbol.expr).result;
  if (v.state != Value::State::known) return v;
  // The symbol's declared unit must be its source's: a source that forgot a MHz-to-Hz factor, or
  // added one twice, is caught here rather than shown a million times off.
  Unit declared = parse_unit(symbol.unit).value_or(ParsedUnit{}).unit;
  if (symbol.unit.empty()) declared = units::none;
  if (!(declared == v.unit))
    return {Value::State::error,
            0,
            {},
            "symbol " + symbol.name + " is declared in \"" + symbol.unit +
                "\" but its source gives " +
                (v.unit.dimensionless() ? std::string("a plain number") : to_string(v.unit))};
  return v;
}

std::vector<std::string> render_symbols_table(const SymbolTable& table, const SymbolUsers& users,
                                              const Scope& scope, const std::string& file, int line,
                                              Diagnostics& diagnostics) {
  std::vector<std::string> out = {
      "| symbol | meaning | unit | source | this generation | used in |",
      "|:--|:--|:--|:--|--:|:--|"};
  for (const SymbolDef& s : table.all()) {
    Value v = symbol_value(s, scope);
    if (v.state == Value::State::error)
      diagnostics.error(file, line, "symbol " + s.name + " (" + s.source + "): " + v.message);
    std::string chapters;
    if (auto it = users.find(s.name); it != users.end())
      for (const auto& [id, basename] : it->second)
        chapters += (chapters.empty() ? "" : ", ") + ("[" + id + "](" + basename + ".html)");
    out.push_back("| $" + s.latex + "$ | " + s.meaning + " | " + (s.unit.empty() ? "—" : s.unit) +
                  " | `" + s.source + "` | " + cell(v, s.name + " = " + s.source) + " | " +
                  (chapters.empty() ? "—" : chapters) + " |");
  }
  return out;
}

}  // namespace weave
