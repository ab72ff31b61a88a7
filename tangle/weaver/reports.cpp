#include "reports.h"

#include "format.h"
#include "told.h"

namespace weave {
namespace {

nlohmann::json value_json(const Value& v) {
  if (v.state != Value::State::known) return nullptr;
  std::string error;
  return {{"value", v.number},
          {"unit", to_string(v.unit)},
          {"shown", format_value(v.number, v.unit, "", 3, error).value_or("")}};
}

std::string shown(const Value& v) {
  if (v.state == Value::State::unmeasured) return "not yet measured";
  std::string error;
  return v.state == Value::State::known ? format_value(v.number, v.unit, "", 3, error).value_or("?")
                                        : "?";
}

}  // namespace

nlohmann::json book_json(const std::vector<WovenChapter>& chapters, const MeasurementStore& store,
                         const BookContext& book) {
  nlohmann::json j;
  j["format"] = 1;
  j["gpu"] = store.machine ? nlohmann::json(store.machine->gpu) : nlohmann::json(nullptr);
  j["gpu_slug"] = store.slug;
  j["machine_date"] = store.machine ? nlohmann::json(store.machine->date) : nlohmann::json(nullptr);
  j["measured_now"] = book.measured_now;
  // the reference GPU, when the book is woven for another: the front page names both
  const MeasurementStore* ref = book.reference;
  j["reference_gpu"] = ref && ref->machine ? nlohmann::json(ref->machine->gpu) : nullptr;
  j["woven_is_reference"] = book.woven_is_reference;
  j["chapters"] = nlohmann::json::array();
  for (const auto& w : chapters) {
    const FrontMatter& fm = w.chapter->fm;
    const Record* record = store.record(fm.id);
    j["chapters"].push_back(
        {{"id", fm.id},
         {"title", fm.title},
         {"basename", w.chapter->basename},
         {"src", fm.src},
         {"source", w.chapter->path},
         {"woven", w.chapter->basename + ".md"},
         {"stale", w.output.stale},
         {"measured", record ? nlohmann::json(record->date) : nlohmann::json(nullptr)},
         {"gpu", record ? nlohmann::json(record->gpu) : nlohmann::json(nullptr)},
         {"figures", w.output.figures},
         {"claims", chapter_tally(w.output)}});
  }
  return j;
}

nlohmann::json claims_json(const std::vector<WovenChapter>& chapters) {
  nlohmann::json list = nlohmann::json::array();
  std::map<std::string, int> summary = {{"holds", 0}, {"broken", 0}, {"not yet measured", 0}};
  for (const auto& w : chapters)
    for (const ClaimResult& c : w.output.claims) {
      nlohmann::json values = nlohmann::json::array(), comparisons = nlohmann::json::array();
      for (const TermValue& t : c.evaluation.terms)
        values.push_back({{"term", t.text}, {"value", value_json(t.value)}});
      for (const Comparison& k : c.evaluation.comparisons)
        comparisons.push_back({{"left", k.left_text},
                               {"op", k.op},
                               {"right", k.right_text},
                               {"left_value", value_json(k.left)},
                               {"right_value", value_json(k.right)},
                               {"holds", k.holds}});
      ++summary[status_name(c.status)];
      nlohmann::json entry = {
          {"chapter", c.chapter_id}, {"file", c.file},
          {"line", c.line},          {"where", c.file + ":" + std::to_string(c.line)},
          {"expr", c.expr},          {"status", status_name(c.status)},
          {"text", c.text}};
      entry["values"] = std::move(values);  // moved, not copied: 30 000 claims fit in 1 MB
      entry["comparisons"] = std::move(comparisons);
      if (c.reference_status)  // woven for another GPU: the same claim on the reference GPU
        entry["reference_status"] = status_name(*c.reference_status);
      list.push_back(std::move(entry));
    }
  return {{"format", 1}, {"summary", summary}, {"claims", list}};
}

std::string claims_markdown(const std::vector<WovenChapter>& chapters,
                            const MeasurementStore& store) {
  int total = 0, broken = 0;
  std::string rows;
  for (const auto& w : chapters)
    for (const ClaimResult& c : w.output.claims) {
      ++total;
      broken += c.status == ClaimResult::Status::broken;
      std::string values;
      for (const TermValue& t : c.evaluation.terms)
        values += (values.empty() ? "" : "; ") + ("`" + t.text + "` = " + shown(t.value));
      std::string status =
          c.status == ClaimResult::Status::broken ? "**broken**" : status_name(c.status);
      rows += "| " + status + " | " + c.file + ":" + std::to_string(c.line) + " | `" + c.expr +
              "` | " + values + " |\n";
    }
  std::string gpu = store.machine ? store.machine->gpu : "no GPU recorded yet";
  std::string out = "# Claims report\n\n" + std::to_string(total) +
                    " claims checked against the records of " + gpu + "; " +
                    std::to_string(broken) + " broken.\n\n";
  if (total == 0) return out;
  return out + "| verdict | where | claim | values |\n|:--|:--|:--|:--|\n" + rows;
}

nlohmann::json symbols_json(const std::vector<WovenChapter>& chapters, const BookContext& book) {
  Scope scope(*book.store, "", book.chapter_of_src);
  nlohmann::json symbols = nlohmann::json::array(), by_chapter = nlohmann::json::object();
  for (const SymbolDef& s : book.symbols->all()) {
    Value v = symbol_value(s, scope);
    nlohmann::json users = nlohmann::json::array();
    if (auto it = book.symbol_users.find(s.name); it != book.symbol_users.end())
      for (const auto& [id, basename] : it->second) users.push_back(id);
    symbols.push_back({{"symbol", s.name},
                       {"latex", s.latex},
                       {"meaning", s.meaning},
                       {"unit", s.unit},
                       {"source", s.source},
                       {"value", value_json(v)},
                       {"chapters", users}});
  }
  for (const auto& w : chapters) {
    nlohmann::json declared = nlohmann::json::array();
    for (const Named& n : w.chapter->fm.symbols)
      if (const SymbolDef* s = book.symbols->find(n.name))
        declared.push_back({{"symbol", s->name}, {"value", value_json(symbol_value(*s, scope))}});
    by_chapter[w.chapter->fm.id] = declared;
  }
  return {{"format", 1}, {"symbols", symbols}, {"chapters", by_chapter}};
}

}  // namespace weave
