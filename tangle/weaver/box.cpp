#include "box.h"

#include <algorithm>
#include <cctype>

#include "format.h"
#include "spans.h"

namespace weave {
namespace {

std::string context_text(const nlohmann::json& context, const char* key) {
  auto it = context.find(key);
  if (it == context.end() || it->is_null()) return "";
  return inert_text(it->is_string() ? it->get<std::string>() : it->dump());  // tools.md WV04
}

// A clock of the context (recorded in MHz) to four significant digits with its unit: "1975 MHz",
// not the recorded 1975.5510000000002.
std::string clock_text(const nlohmann::json& context, const char* key) {
  auto it = context.find(key);
  if (it == context.end() || !it->is_number()) return context_text(context, key);
  return significant(it->get<double>(), 4, true) + " MHz";
}

std::string escape_cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// "CUDA runtime 13.0 · driver 580.159.04 · nvcc 13.0.88 · SM clock ... (max ...)", or "".
std::string facts_line(const nlohmann::json& context) {
  std::vector<std::string> facts;
  for (auto [label, key] :
       {std::pair{"CUDA runtime ", "runtime"}, {"driver ", "driver"}, {"nvcc ", "nvcc"}})
    if (std::string v = context_text(context, key); !v.empty()) facts.push_back(label + v);
  std::string start = clock_text(context, "sm_clock_start_mhz"),
              end = clock_text(context, "sm_clock_end_mhz"),
              max = clock_text(context, "sm_clock_max_mhz");
  if (!start.empty() || !end.empty())
    facts.push_back("SM clock " + (start.empty() ? "?" : start) + " at the start, " +
                    (end.empty() ? "?" : end) + " at the end" +
                    (max.empty() ? "" : " (max " + max + ")"));
  std::string line;
  for (const auto& f : facts) line += (line.empty() ? "" : " · ") + f;
  return line;
}

// How long the make measure that wrote machine.json took, from its context (measure_seconds, and
// build_seconds where the caller timed the build): "The run that measured it: 345 s for 17
// chapters, after a build of 47 s", or "" for a record made before the run kept its time.
std::string run_line(const Machine* machine) {
  if (machine == nullptr) return "";
  auto seconds = [&](const char* key) -> std::string {
    auto it = machine->context.find(key);
    if (it == machine->context.end() || !it->is_number() || it->get<double>() < 0) return "";
    return std::to_string(static_cast<long long>(it->get<double>() + 0.5)) + " s";
  };
  std::string measure = seconds("measure_seconds"), build = seconds("build_seconds");
  if (measure.empty()) return "";
  std::string chapters = machine->run_chapters == 1 ? " for 1 chapter"
                         : machine->run_chapters > 1
                             ? " for " + std::to_string(machine->run_chapters) + " chapters"
                             : "";
  return "the run that measured it took " + measure + chapters +
         (build.empty() ? "" : ", after a build of " + build);
}

// The GPU, date and context of a store's record for a chapter (else of its machine.json).
struct Provenance {
  std::string gpu, date;
  const nlohmann::json* context = nullptr;
};

Provenance provenance(const MeasurementStore& store, const std::string& id) {
  static const nlohmann::json none = nlohmann::json::object();
  const Record* record = store.record(id);
  const Machine* machine = store.machine ? &*store.machine : nullptr;
  return {record    ? record->gpu
          : machine ? machine->gpu
                    : "",
          record    ? record->date
          : machine ? machine->date
                    : "",
          record    ? &record->context
          : machine ? &machine->context
                    : &none};
}

std::string dated(const Provenance& p) {
  std::string when = p.date.substr(0, 10);
  return when.empty() ? "on an unrecorded date" : "[" + when + "]{title=\"" + p.date + "\"}";
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
  out.push_back(std::string("::: {.hwbox") + (in.stale ? " .stale" : "") +
                (in.reference ? " .beside" : "") + "}");

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
  // Woven for another GPU: the reference's column stands beside this one's, each dated.
  const Provenance theirs =
      in.reference ? provenance(*in.reference_store, in.fm->id) : Provenance{};
  const Provenance yours = provenance(*in.store, in.fm->id);
  // The reference's record of this chapter measured code that has changed since: its numbers
  // are shown, marked (never an error: that GPU is not the one woven).
  const Record* their_record = in.reference ? in.reference_store->record(in.fm->id) : nullptr;
  const bool theirs_stale = their_record && their_record->stale;
  if (in.reference) {
    out.push_back("**Beside it, the reference GPU:** " +
                  (theirs.gpu.empty() ? std::string("not measured")
                                      : theirs.gpu + ", measured " + dated(theirs)) +
                  ", the GPU this book's prose was written from." +
                  (theirs_stale ? " [**Stale:** measured with this chapter's code of that date, "
                                  "which has changed since; its numbers below are those of the "
                                  "earlier code.]{.stale-note}"
                                : ""));
    out.push_back("");
  }
  const std::string their_label = theirs_stale ? "reference, stale" : "reference";
  // the symbols' values are the reference's ceilings: stale when its harness's code changed
  const bool ceilings_stale =
      in.reference && in.reference_store->machine && in.reference_store->machine->stale;

  if (!in.fm->symbols.empty()) {
    if (in.reference) {
      out.push_back("| symbol | meaning | " + yours.gpu + " (yours), " + yours.date.substr(0, 10) +
                    " | " + theirs.gpu + " (" +
                    (ceilings_stale ? "reference, stale" : "reference") + "), " +
                    theirs.date.substr(0, 10) + " |");
      out.push_back("|:--|:--|--:|--:|");
    } else {
      out.push_back("| symbol | meaning | this generation |");
      out.push_back("|:--|:--|--:|");
    }
    for (const Named& name : in.fm->symbols) {
      const SymbolDef* symbol = in.symbols->find(name.name);
      if (!symbol) continue;  // reported once, where the front matter is read
      Value v = symbol_value(*symbol, *in.scope);
      if (v.state == Value::State::error)
        diagnostics.error(in.file, name.line,
                          "symbol " + symbol->name + " (" + symbol->source + "): " + v.message);
      std::string row = "| $" + symbol->latex + "$ | " + escape_cell(symbol->meaning) + " | " +
                        cell(v, symbol->name + " = " + symbol->source) + " |";
      if (in.reference)
        row += " " +
               cell(symbol_value(*symbol, *in.reference),
                    symbol->name + " = " + symbol->source + ", on " + theirs.gpu) +
               " |";
      out.push_back(row);
    }
    out.push_back("");
  }
  // The chapter's own results, each once: a result borrowed from another chapter for a figure
  // (or listed in two figures) is that figure's business, and its own chapter's box shows it.
  std::vector<KernelResult> own;
  for (const KernelResult& k : *in.kernels) {
    bool seen = std::any_of(own.begin(), own.end(),
                            [&](const KernelResult& o) { return o.name == k.name; });
    if (!seen && !k.borrowed(in.fm->id)) own.push_back(k);
  }
  if (!own.empty() && !in.reference) {
    out.push_back("| result | time | bandwidth | FLOP rate |");
    out.push_back("|:--|--:|--:|--:|");
    for (const KernelResult& k : own) {
      auto title = [&](const char* quantity) {  // with the statistic, where it was recorded
        std::string detail = in.scope->lookup(Term{k.name, quantity, "median"}).detail;
        return k.name + " : " + quantity + (detail.empty() ? "" : ", " + detail);
      };
      out.push_back("| `" + k.name + "` | " + cell(k.time, title("time")) + " | " +
                    cell(k.bandwidth, title("bandwidth")) + " | " +
                    cell(k.flop_rate, title("flop_rate")) + " |");
    }
    out.push_back("");
  } else if (!own.empty()) {  // two rows a result: this GPU's, then the reference's
    out.push_back("| result | measured on | time | bandwidth | FLOP rate |");
    out.push_back("|:--|:--|--:|--:|--:|");
    for (const KernelResult& k : own) {
      auto row = [&](const KernelResult& r, const Scope& scope, const std::string& name,
                     const std::string& first, const std::string& gpu) {
        auto title = [&](const char* quantity) {
          std::string detail = scope.lookup(Term{r.name, quantity, "median"}).detail;
          return r.name + " : " + quantity + ", on " + gpu + (detail.empty() ? "" : ", " + detail);
        };
        out.push_back("| " + first + " | " + name + " | " + cell(r.time, title("time")) + " | " +
                      cell(r.bandwidth, title("bandwidth")) + " | " +
                      cell(r.flop_rate, title("flop_rate")) + " |");
      };
      row(k, *in.scope, "yours", "`" + k.name + "`", yours.gpu);
      auto same = std::find_if(in.reference_kernels->begin(), in.reference_kernels->end(),
                               [&](const KernelResult& r) { return r.name == k.name; });
      if (same != in.reference_kernels->end())
        row(*same, *in.reference, their_label, "", theirs.gpu);
      else
        out.push_back("|  | " + their_label + " | — | — | — |");
    }
    out.push_back("");
  }

  auto with_run = [](std::string line, const MeasurementStore* store) {
    std::string run = run_line(store && store->machine ? &*store->machine : nullptr);
    if (run.empty()) return line;
    return line.empty() ? std::string(1, static_cast<char>(std::toupper(run[0]))) + run.substr(1)
                        : line + "; " + run;
  };
  if (std::string line = with_run(facts_line(*yours.context), in.store); !line.empty()) {
    out.push_back((in.reference ? "Yours: " : "") + line + ".");
    out.push_back("");
  }
  if (in.reference)
    if (std::string line = with_run(facts_line(*theirs.context), in.reference_store);
        !line.empty()) {
      out.push_back("The reference: " + line + ".");
      out.push_back("");
    }
  if (record && record->tests_failed > 0)
    out.push_back("[**" + std::to_string(record->tests_failed) +
                  " GPU test(s) failed** in the run that measured these numbers (" + record->file +
                  "): a time of a kernel that fails its test is not the time of a correct "
                  "kernel.]{.stale-note}");
  if (record && record->tests_failed > 0 && in.stale) out.push_back("");
  if (in.stale)
    out.push_back(
        "[**Stale:** this chapter's code changed after these numbers were measured; "
        "`make measure CHAPTER=" +
        in.fm->id + "` measures it again.]{.stale-note}");
  out.push_back(":::");
  return out;
}

}  // namespace weave
