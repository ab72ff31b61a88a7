#include "box.h"

#include "spans.h"

namespace weave {
namespace {

std::string context_text(const nlohmann::json& context, const char* key) {
  auto it = context.find(key);
  if (it == context.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string escape_cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string cell(const Value& value, const std::string& title) {
  if (value.state == Value::State::error) return "—";
  std::string error;
  std::string span = value_span(value, title, "", 3, error);
  return span.empty() ? "—" : span;
}

std::vector<std::string> render_box(const BoxInput& in, Diagnostics& diagnostics) {
  const Record* record = in.store->record(in.fm->id);
  const Machine* machine = in.store->machine ? &*in.store->machine : nullptr;
  std::vector<std::string> out;
  out.push_back(in.stale ? "::: {.hwbox .stale}" : "::: {.hwbox}");

  std::string gpu = record ? record->gpu : machine ? machine->gpu : "";
  std::string date = record ? record->date : machine ? machine->date : "";
  std::string when = date.substr(0, 10);
  std::string heading = "**This generation:** ";
  if (gpu.empty())
    heading += "[not yet measured]{.unmeasured}: run `make measure` on a GPU, then `make book`.";
  else
    heading += gpu + ", measured " +
               (when.empty() ? "on an unrecorded date" : "[" + when + "]{title=\"" + date + "\"}") +
               (in.measured_now ? " in this build."
                                : " (recorded earlier, from the committed measurement files).");
  out.push_back(heading);
  out.push_back("");

  if (!in.fm->symbols.empty()) {
    out.push_back("| symbol | meaning | this generation |");
    out.push_back("|:--|:--|--:|");
    for (const Named& name : in.fm->symbols) {
      const SymbolDef* symbol = in.symbols->find(name.name);
      if (!symbol) continue;  // reported once, where the front matter is read
      Value v = symbol_value(*symbol, *in.scope);
      if (v.state == Value::State::error)
        diagnostics.error(in.file, name.line,
                          "symbol " + symbol->name + " (" + symbol->source + "): " + v.message);
      out.push_back("| $" + symbol->latex + "$ | " + escape_cell(symbol->meaning) + " | " +
                    cell(v, symbol->name + " = " + symbol->source) + " |");
    }
    out.push_back("");
  }
  if (!in.kernels->empty()) {
    out.push_back("| result | time | bandwidth | FLOP rate |");
    out.push_back("|:--|--:|--:|--:|");
    for (const KernelResult& k : *in.kernels) {
      auto title = [&](const char* quantity) {  // with the statistic, where it was recorded
        std::string detail = in.scope->lookup(Term{k.name, quantity, "median"}).detail;
        return k.name + " : " + quantity + (detail.empty() ? "" : ", " + detail);
      };
      out.push_back("| `" + k.name + "` | " + cell(k.time, title("time")) + " | " +
                    cell(k.bandwidth, title("bandwidth")) + " | " +
                    cell(k.flop_rate, title("flop_rate")) + " |");
    }
    out.push_back("");
  }

  const nlohmann::json& context = record    ? record->context
                                  : machine ? machine->context
                                            : nlohmann::json::object();
  std::vector<std::string> facts;
  for (auto [label, key] :
       {std::pair{"CUDA runtime ", "runtime"}, {"driver ", "driver"}, {"nvcc ", "nvcc"}})
    if (std::string v = context_text(context, key); !v.empty()) facts.push_back(label + v);
  std::string start = context_text(context, "sm_clock_start_mhz"),
              end = context_text(context, "sm_clock_end_mhz"),
              max = context_text(context, "sm_clock_max_mhz");
  if (!start.empty() || !end.empty())
    facts.push_back("SM clock " + (start.empty() ? "?" : start) + " MHz at the start, " +
                    (end.empty() ? "?" : end) + " MHz at the end" +
                    (max.empty() ? "" : " (max " + max + " MHz)"));
  if (!facts.empty()) {
    std::string line;
    for (const auto& f : facts) line += (line.empty() ? "" : " · ") + f;
    out.push_back(line + ".");
    out.push_back("");
  }
  if (in.stale)
    out.push_back(
        "[**Stale:** this chapter's code changed after these numbers were measured; "
        "`make measure CHAPTER=" +
        in.fm->id + "` measures it again.]{.stale-note}");
  out.push_back(":::");
  return out;
}

}  // namespace weave
