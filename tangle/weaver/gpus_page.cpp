#include "gpus_page.h"

#include <algorithm>

#include "format.h"
#include "last_rungs.h"

namespace weave {
namespace {

std::string quantity_text(const Value& v, const std::string& fmt = "") {
  if (v.state != Value::State::known) return "";
  std::string error;
  return format_value(v.number, v.unit, fmt, 3, error).value_or("");
}

std::string clock_mhz(const nlohmann::json& context, const char* key) {
  auto it = context.find(key);
  return it != context.end() && it->is_number() ? significant(it->get<double>(), 4, true) : "?";
}

// "1980 / 1965 MHz (max 1980)": the SM clock at the start and end of the run that measured it.
std::string clocks(const nlohmann::json& context) {
  if (!context.contains("sm_clock_start_mhz") && !context.contains("sm_clock_end_mhz")) return "—";
  return clock_mhz(context, "sm_clock_start_mhz") + " / " + clock_mhz(context, "sm_clock_end_mhz") +
         " MHz (max " + clock_mhz(context, "sm_clock_max_mhz") + ")";
}

std::string name_of(const GpuColumn& g) {
  return g.store->machine && !g.store->machine->gpu.empty() ? g.store->machine->gpu : g.slug;
}

// The library peer measured beside a rung in the same record: <src>/peer_<what>@<the same args>.
std::string peer_of(const Record& record, const std::string& key) {
  const size_t at = key.find('@'), slash = key.find('/');
  if (at == std::string::npos || slash == std::string::npos) return "";
  if (key.compare(slash + 1, 5, "peer_") == 0) return "";  // a peer itself
  const std::string prefix = key.substr(0, slash + 1) + "peer_", args = key.substr(at);
  for (const auto& [other, quantities] : record.results)
    if (other.rfind(prefix, 0) == 0 && other.size() > args.size() &&
        other.compare(other.size() - args.size(), args.size(), args) == 0 &&
        quantities.count("time"))
      return other;
  return "";
}

// One cell: this GPU's time, its speed against the reference's (reference time over this time)
// and against the peer of the same run (peer time over the rung's), or why it has no time.
std::string result_cell(const GpuColumn& g, const Scope& scope, const std::string& chapter_id,
                        const std::string& key, const Value& reference_time, bool is_reference) {
  Value time = scope.lookup(Term{key, "time", "median"}).value;
  if (time.state == Value::State::unmeasured && time.not_run) {
    std::string why;
    for (char ch : time.message) why += ch == '|' ? std::string("\\|") : std::string(1, ch);
    return "*" + why + "*";
  }
  if (time.state != Value::State::known || time.number <= 0) return "—";
  std::string text = quantity_text(time);
  if (!is_reference && reference_time.state == Value::State::known)
    text += ", " + significant(reference_time.number / time.number, 3) + "× ref";
  if (const Record* record = g.store->record(chapter_id)) {
    std::string peer = peer_of(*record, key);
    if (!peer.empty()) {
      const Quantity& p = record->results.at(peer).at("time");
      text += ", " + significant(p.median / time.number, 3) + "× peer";
    }
  }
  return text;
}

}  // namespace

std::string gpus_page(const std::vector<const Chapter*>& chapters, std::vector<GpuColumn> gpus,
                      const std::string& woven, const std::string& reference,
                      const BookContext& book) {
  std::stable_sort(gpus.begin(), gpus.end(), [&](const GpuColumn& a, const GpuColumn& b) {
    return (a.slug == reference) > (b.slug == reference);
  });
  const GpuColumn* ref = !gpus.empty() && gpus.front().slug == reference ? &gpus.front() : nullptr;
  std::vector<std::string> lines = {
      "---",
      std::string("id: \"") + kGpusPageId + "\"",
      std::string("title: \"") + kGpusPageTitle + "\"",
      "---",
      "",
      std::string("# ") + kGpusPageTitle,  // the renderer's title stands in its place
      "",
      "Every GPU whose records are in `book/measurements/`, side by side: one folder a GPU, "
      "written by `make measure` on it (appendix C says how to add yours). This book is woven "
      "for **" +
          woven + "**" +
          (ref ? "; the reference GPU, the one its prose was written from, is **" + reference +
                     "**."
               : "; no reference GPU is named (book/reference-gpu)."),
      "",
      "## The GPUs",
      "",
      "Each GPU a column, each of its measured properties a row (a phone shows them all)."};
  // the GPUs as columns and their properties as rows: two or three columns fit a phone, where
  // eight did not (the review's H7)
  std::string gpu_head = "| |", gpu_rule = "|:--|";
  std::vector<std::string> rows = {
      "| folder |",         "| measured |",      "| SM clock, start / end |", "| SMs |",
      "| copy bandwidth |", "| FP32 FMA rate |", "| BF16 tensor rate |"};
  for (const GpuColumn& g : gpus) {
    const Machine* m = g.store->machine ? &*g.store->machine : nullptr;
    Scope scope(*g.store, "", book.chapter_of_src);
    auto ceiling = [&](const char* name) {
      std::string text = quantity_text(scope.lookup(Term{"machine", name, "median"}).value);
      return text.empty() ? std::string("—") : text;
    };
    std::string sms =
        m && m->context.contains("sm_count") ? inert_text(m->context["sm_count"].dump()) : "—";
    gpu_head += " " + name_of(g) + (g.slug == reference ? " (reference)" : "") +
                (g.slug == woven ? " (this book)" : "") + " |";
    gpu_rule += "--:|";
    const std::string cells[] = {
        "`" + g.slug + "`",
        (m && !m->date.empty() ? m->date.substr(0, 10) : "—") +
            (m && m->stale ? " (**stale**: the harness's code has changed since)" : ""),
        m ? clocks(m->context) : "—",
        sms,
        ceiling("copy_bandwidth"),
        ceiling("fp32_fma_rate"),
        ceiling("bf16_tensor_rate")};
    for (size_t i = 0; i < rows.size(); ++i) rows[i] += " " + cells[i] + " |";
  }
  lines.insert(lines.end(), {"", gpu_head, gpu_rule});
  lines.insert(lines.end(), rows.begin(), rows.end());
  lines.insert(lines.end(),
               {"", "## Each chapter's headline results", "",
                "Each ladder's last rung beside the library peer measured on the same problem, and "
                "the kernels the chapter draws on its roofline, by median time. *× ref* is the "
                "reference GPU's time over this GPU's (above 1: faster than the reference); *× "
                "peer* is the library peer's time over the kernel's, both measured in the same run "
                "on that GPU (above 1: faster than the peer). A result a GPU skipped or failed "
                "says why.",
                ""});
  std::string header = "| result |", rule = "|:--|";
  // two folders of one GPU model (a capped run, a second card) share a name: the folder tells them
  // apart
  auto shared_name = [&](const GpuColumn& g) {
    return std::count_if(gpus.begin(), gpus.end(),
                         [&](const GpuColumn& o) { return name_of(o) == name_of(g); }) > 1;
  };
  for (const GpuColumn& g : gpus) {
    header += " " + name_of(g) + (shared_name(g) ? " `" + g.slug + "`" : "") + " |";
    rule += "--:|";
  }
  for (const Chapter* c : chapters) {
    std::vector<std::string> keys;  // each ladder's last rung and its peers, then the roofline's
    for (const GpuColumn& g : gpus)
      if (const Record* r = g.store->record(c->fm.id))
        for (const std::string& key : last_rungs_and_peers(*r))
          if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    for (const KernelPoint& k : c->fm.kernels) {
      std::string error;
      auto key = normalise_key(k.name, error);
      Scope owner(*gpus.front().store, c->fm.id, book.chapter_of_src);
      if (key && owner.owner_of(*key) == c->fm.id &&
          std::find(keys.begin(), keys.end(), *key) == keys.end())
        keys.push_back(*key);
    }
    bool any_record = std::any_of(gpus.begin(), gpus.end(),
                                  [&](const GpuColumn& g) { return g.store->record(c->fm.id); });
    if (keys.empty() || !any_record) continue;  // nothing to set side by side
    lines.push_back("### " + c->fm.id + " " + c->fm.title);
    lines.push_back("");
    lines.push_back("[Chapter " + c->fm.id + "](" + c->basename + ".html)'s kernels, from its " +
                    "record on each GPU.");
    lines.push_back("");
    lines.push_back(header);
    lines.push_back(rule);
    std::string measured = "| *measured; SM clock, start / end* |";
    for (const GpuColumn& g : gpus) {
      const Record* r = g.store->record(c->fm.id);
      measured += " " +
                  (r ? (r->date.empty() ? "?" : r->date.substr(0, 10)) +
                           (r->stale ? " (**stale**: measured with the chapter's code of that "
                                       "date, which has changed since)"
                                     : "") +
                           "; " + clocks(r->context)
                     : std::string("not measured")) +
                  " |";
    }
    lines.push_back(measured);
    for (const std::string& key : keys) {
      std::string row = "| `" + key + "` |";
      Value reference_time;
      reference_time.state = Value::State::unmeasured;
      if (ref)
        reference_time = Scope(*ref->store, c->fm.id, book.chapter_of_src)
                             .lookup(Term{key, "time", "median"})
                             .value;
      for (const GpuColumn& g : gpus) {
        Scope scope(*g.store, c->fm.id, book.chapter_of_src);
        row += " " + result_cell(g, scope, c->fm.id, key, reference_time, &g == ref) + " |";
      }
      lines.push_back(row);
    }
    lines.push_back("");
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace weave
