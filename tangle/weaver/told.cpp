#include "told.h"

#include "format.h"

namespace weave {
namespace {

bool is_unchecked(ClaimResult::Status s) {
  return s == ClaimResult::Status::unmeasured || s == ClaimResult::Status::not_checked;
}

std::string value_text(const Value& v) {
  std::string error;
  return v.state == Value::State::known ? format_value(v.number, v.unit, "", 3, error).value_or("?")
                                        : "?";
}

// The claim's words as a list item shows them: on one line, each woven value [key]{.m} as "…"
// (its value stands in the chapter; the comparisons that decide the claim follow the words).
std::string claim_words(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      out += ' ';
      continue;
    }
    if (text[i] == '[') {  // a span [...]{.m ...}: its closing "]{.m", then its "}"
      const size_t close = text.find("]{.m", i);
      const size_t end = close == std::string::npos ? close : text.find('}', close);
      if (end != std::string::npos && text.find('[', i + 1) > close) {
        out += "…";
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// "`a : time` = 600 µs, not < `b : time` = 500 µs; ...": every comparison that fails.
std::string failed_comparisons(const Evaluation& e) {
  std::string text;
  for (const Comparison& k : e.comparisons)
    if (!k.holds)
      text += (text.empty() ? "" : "; ") + std::string("`") + k.left_text +
              "` = " + value_text(k.left) + ", not " + k.op + " `" + k.right_text +
              "` = " + value_text(k.right);
  return text;
}

std::string reference_note(const ClaimResult& c) {
  if (c.reference_elsewhere) return " On the reference GPU another variant of the passage stands.";
  if (!c.reference_status) return "";
  switch (*c.reference_status) {
    case ClaimResult::Status::holds:
      return " It holds on the reference GPU.";
    case ClaimResult::Status::broken:
      return " It does not hold on the reference GPU either.";
    default:
      return " It is not checked on the reference GPU either.";
  }
}

std::string claim_link(const WovenChapter& w, const ClaimResult& c) {
  return "[" + w.chapter->fm.id + ", line " + std::to_string(c.line) + "](" + w.chapter->basename +
         ".html#" + claim_anchor(c) + ")";
}

std::string counted_noun(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

nlohmann::json chapter_tally(const ChapterOutput& out) {
  int hold = 0;
  nlohmann::json broken = nlohmann::json::array(), open = nlohmann::json::array();
  for (const ClaimResult& c : out.claims) {
    hold += c.status == ClaimResult::Status::holds;
    if (c.status == ClaimResult::Status::broken)
      broken.push_back({{"line", c.line}, {"anchor", claim_anchor(c)}});
    else if (is_unchecked(c.status))
      open.push_back(
          {{"line", c.line},
           {"anchor", claim_anchor(c)},
           {"why", c.status == ClaimResult::Status::not_checked ? "not run" : "not measured"}});
  }
  return {{"total", out.claims.size()}, {"hold", hold}, {"broken", broken}, {"unchecked", open}};
}

std::string told_section(const std::vector<WovenChapter>& chapters, const MeasurementStore& store) {
  const std::string gpu =
      store.machine && !store.machine->gpu.empty() ? store.machine->gpu : store.slug;
  size_t total = 0, hold = 0;
  std::string broken, open, stale;
  for (const WovenChapter& w : chapters) {
    for (const ClaimResult& c : w.output.claims) {
      ++total;
      hold += c.status == ClaimResult::Status::holds;
      if (c.status == ClaimResult::Status::broken)
        broken += "- **" + claim_link(w, c) + "**: " + claim_words(c.text) + "\\\n  *Broken by* " +
                  failed_comparisons(c.evaluation) + "." + reference_note(c) + "\n";
      else if (is_unchecked(c.status))
        open += "- **" + claim_link(w, c) + "**: " + claim_words(c.text) + "\\\n  *" +
                (c.status == ClaimResult::Status::not_checked ? "Not run on this GPU"
                                                              : "Never measured on this GPU") +
                ":* " + c.evaluation.result.message + "\n";
    }
    if (w.output.stale) {
      const Record* r = store.record(w.chapter->fm.id);
      const std::string day = r && !r->date.empty() ? r->date.substr(0, 10) : "an unrecorded date";
      stale += "- [" + w.chapter->fm.id + " " + w.chapter->fm.title + "](" + w.chapter->basename +
               ".html): measured on " + day + " with code that has changed since; its " +
               counted_noun(w.output.claims.size(), "claim was", "claims were") +
               " checked on those numbers.\n";
    }
  }
  std::string out =
      "\n## Broken claims: where the book does not hold on " + gpu + " {#does-not-hold}\n\n";
  out += "Of the book's " + counted_noun(total, "claim", "claims") + ", " + std::to_string(hold) +
         " hold on " + gpu +
         ". A claim that does not hold (the weaver marks it broken) is a "
         "sentence whose comparison these records contradict; one that cannot be checked rests "
         "on a value never measured, or not run, on this GPU. A stale chapter's claims were "
         "checked on numbers measured with older code.\n\n";
  out += "### Broken: the claims that do not hold on " + gpu + " {#claims-broken}\n\n" +
         (broken.empty() ? "None: every claim checked here holds.\n" : broken) + "\n";
  if (!open.empty())
    out += "### Unchecked: the claims that cannot be checked on " + gpu +
           " {#claims-unchecked}\n\n" + open + "\n";
  out += "### Stale: the chapters whose records are stale on " + gpu + " {#records-stale}\n\n" +
         (stale.empty() ? "None: every chapter's record was measured with its current code.\n"
                        : stale);
  return out + "\n";  // the page's next section starts a block of its own
}

}  // namespace weave
