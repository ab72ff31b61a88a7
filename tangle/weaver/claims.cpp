#include "claims.h"

#include "format.h"
#include "line_shapes.h"
#include "spans.h"

namespace weave {
namespace {

std::string shown(const Value& v) {
  std::string error;
  return format_value(v.number, v.unit, "", 3, error).value_or("?");
}

}  // namespace

const char* status_name(ClaimResult::Status status) {
  switch (status) {
    case ClaimResult::Status::holds:
      return "holds";
    case ClaimResult::Status::broken:
      return "broken";
    case ClaimResult::Status::unmeasured:
      return "not yet measured";
    case ClaimResult::Status::not_checked:
      return "not checked on this GPU";
    case ClaimResult::Status::invalid:
      return "invalid";
  }
  return "";
}

namespace {

ClaimResult::Status status_of(const Value& result) {
  if (result.state == Value::State::error) return ClaimResult::Status::invalid;
  if (result.state == Value::State::unmeasured)
    return result.not_run ? ClaimResult::Status::not_checked : ClaimResult::Status::unmeasured;
  return result.number != 0 ? ClaimResult::Status::holds : ClaimResult::Status::broken;
}

}  // namespace

ClaimResult check_claim(const std::string& opening, const std::string& chapter_id,
                        const std::string& file, int line, const Scope& scope,
                        Diagnostics& diagnostics, const Scope* reference) {
  ClaimResult c;
  c.chapter_id = chapter_id;
  c.file = file;
  c.line = line;
  // expr="..." or expr='...': Pandoc reads both quotes (tools.md P6: single ones were reported as
  // a missing relation); the first expr= of either kind is the one
  const std::optional<std::string> written = quoted_attribute(opening, "expr");
  if (!written) {
    diagnostics.error(
        file, line, "a claim needs its relation: ::: {.claim expr=\"a : time < 0.6 * b : time\"}");
    return c;
  }
  c.expr = *written;
  std::string error;
  auto expr = parse_expression(c.expr, true, error);
  if (!expr) {
    diagnostics.error(file, line, "claim: " + error);
    return c;
  }
  c.expr = to_text(**expr);
  c.evaluation = scope.evaluate(**expr);
  const Value& result = c.evaluation.result;
  if (result.state == Value::State::error)
    diagnostics.error(file, line, "claim '" + c.expr + "': " + result.message);
  c.status = status_of(result);
  if (reference) {
    c.reference_evaluation = reference->evaluate(**expr);
    c.reference_status = status_of(c.reference_evaluation.result);
  }
  return c;
}

std::string claim_anchor(const ClaimResult& claim) { return "claim-" + std::to_string(claim.line); }

// The id last: the tests and the renderer find a claim by its classes, which come first.
std::string claim_opening(const ClaimResult& c) {
  const char* verdict = c.status == ClaimResult::Status::holds    ? ".claim-holds"
                        : c.status == ClaimResult::Status::broken ? ".claim-broken"
                        : c.status == ClaimResult::Status::not_checked
                            ? ".claim-unmeasured .claim-not-checked"
                            : ".claim-unmeasured";
  return "::: {.claim " + std::string(verdict) + " data-expr=\"" + attribute_text(c.expr) + "\" #" +
         claim_anchor(c) + "}";
}

namespace {

// "- `a` = 0.71 not < `b` = 0.75": each comparison with both sides' values, one list item each.
std::string comparisons_list(const Evaluation& evaluation) {
  std::string items;
  for (const Comparison& k : evaluation.comparisons) {
    std::string relation = k.holds ? k.op : "not " + k.op;
    items += "- `" + k.left_text + "` = " + shown(k.left) + " " + relation + " `" + k.right_text +
             "` = " + shown(k.right) + "\n";
  }
  return items;
}

// " (all 3 comparisons)" for a claim that holds; nothing for a claim of one comparison.
std::string comparisons_count(const Evaluation& evaluation) {
  const size_t n = evaluation.comparisons.size();
  if (n <= 1) return "";
  return n == 2 ? " (both comparisons)" : " (all " + std::to_string(n) + " comparisons)";
}

// A GPU's name in the summary's HTML: its own text, never markup (a record is input, tools.md O8).
std::string html_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

// " (stale: measured on 2026-11-29, with code that has changed since)" when a value the evaluation
// read came from a stale record (or machine.json), else nothing.
std::string stale_mark(const Evaluation& e) {
  const TermValue* t = first_stale(e);
  if (!t) return "";
  const std::string day = t->measured.substr(0, 10);
  return " (stale: measured " + (day.empty() ? std::string("on an unrecorded date") : "on " + day) +
         ", with code that has changed since)";
}

// " (both comparisons)" and " (stale: ...)" as one parenthesis: " (both comparisons; stale: ...)".
std::string counted(const std::string& count, const std::string& stale) {
  if (count.empty() || stale.empty()) return count + stale;
  return count.substr(0, count.size() - 1) + "; " + stale.substr(2);
}

// The comparisons that decide a broken claim, in the summary: "`a : time` = 600 µs, not <
// `b : time` = 500 µs" (two at most, then how many more the fold lists).
std::string failing_comparisons(const Evaluation& e) {
  std::string text;
  size_t shown_count = 0, failing = 0;
  for (const Comparison& k : e.comparisons) {
    if (k.holds) continue;
    if (++failing > 2) continue;
    text += (shown_count++ ? "; " : "") + std::string("`") + k.left_text + "` = " + shown(k.left) +
            ", not " + k.op + " `" + k.right_text + "` = " + shown(k.right);
  }
  if (failing > 2) text += "; and " + std::to_string(failing - 2) + " more, listed below";
  return text;
}

// The same comparisons' values on the reference GPU: "400 µs < 500 µs" (or "..., not < ...").
std::string reference_values(const Evaluation& mine, const Evaluation& theirs) {
  if (mine.comparisons.size() != theirs.comparisons.size()) return "";
  std::string text;
  size_t failing = 0;
  for (size_t i = 0; i < mine.comparisons.size(); ++i) {
    if (mine.comparisons[i].holds || ++failing > 2) continue;
    const Comparison& k = theirs.comparisons[i];
    text += (failing > 1 ? "; " : "") + shown(k.left) + (k.holds ? " " : ", not ") + k.op + " " +
            shown(k.right);
  }
  return text;
}

// A broken claim in a reader's words: what it is (a finding about the reference GPU, or about
// this one's measurements), and the values that decide it on both GPUs.
std::string broken_summary(const ClaimResult& c, const std::string& gpu,
                           const std::string& reference_gpu) {
  const Evaluation& e = c.evaluation;
  size_t n = e.comparisons.size(), failing = 0;
  for (const Comparison& k : e.comparisons) failing += k.holds ? 0 : 1;
  std::string which = "the comparison does not hold";
  if (n > 1)
    which = std::to_string(failing) + " of its " + std::to_string(n) + " comparisons " +
            (failing == 1 ? "does" : "do") + " not hold";
  std::string summary = "**On this GPU" + (gpu.empty() ? "" : " (" + gpu + ")") + " " + which +
                        ":** " + failing_comparisons(e) + stale_mark(e) + ".";
  if (c.reference_elsewhere)
    return summary +
           " The passage around it was chosen by this GPU's records; on the reference "
           "GPU, " +
           html_text(reference_gpu) + ", another variant stands here.";
  if (!c.reference_status)
    return summary + " The sentence above is not borne out by this GPU's measurements.";
  const std::string ref = html_text(reference_gpu);
  const std::string values = reference_values(e, c.reference_evaluation);
  const std::string stale = stale_mark(c.reference_evaluation);
  switch (*c.reference_status) {
    case ClaimResult::Status::holds:
      return summary + " The sentence is a finding about the reference GPU, " + ref +
             ", where it holds" + (values.empty() ? "" : ": " + values) + stale + ".";
    case ClaimResult::Status::broken:
      return summary + " On the reference GPU, " + ref + ", it does not hold either" +
             (values.empty() ? "" : ": " + values) + stale + ".";
    default:
      return summary + " On the reference GPU, " + ref + ", it was not checked (" +
             c.reference_evaluation.result.message + ").";
  }
}

// The reference GPU's verdict, a word for the summary and its comparisons for the fold.
struct ReferenceVerdict {
  std::string summary, body;
};
ReferenceVerdict reference_verdict(const ClaimResult& c, const std::string& reference_gpu) {
  const std::string on = " On the reference GPU, " + html_text(reference_gpu) + ": ";
  const Evaluation& e = c.reference_evaluation;
  const std::string stale = stale_mark(e);
  switch (*c.reference_status) {
    case ClaimResult::Status::holds:
      return {on + "held" + stale + ".",
              on.substr(1) + "held" + stale + ".\n\n" + comparisons_list(e)};
    case ClaimResult::Status::broken:
      return {on + "broken too" + stale + ".",
              on.substr(1) + "broken too" + stale + ".\n\n" + comparisons_list(e)};
    case ClaimResult::Status::unmeasured:
    case ClaimResult::Status::not_checked:
    case ClaimResult::Status::invalid:
      return {on + "not checked (" + e.result.message + ").", ""};
  }
  return {};
}

}  // namespace

// A measured verdict is one line, its comparisons folded under it: a <details> whose summary says
// whether the claim holds and over how many comparisons, opened on demand (a claim over 40
// comparisons printed them all, a screen and a half). The book's other folded parts (the
// apparatus, book/render/code_blocks.lua) are <details> too; the EPUB keeps them as HTML5.
// A verdict with nothing measured stays an HTML <span>, not a bracketed span [...]{.claim-verdict}:
// Pandoc parsed a bracketed span of a long verdict several times over (issue 11, build speed).
// Woven for a GPU other than the reference, "this GPU" is "yours" and the reference's verdict
// follows: "Holds on yours, NVIDIA L4. On the reference GPU, NVIDIA H200: held." A broken claim
// is said in a reader's words, with the values that decide it on both GPUs (broken_summary):
// "**On this GPU (NVIDIA L4) the comparison does not hold:** `a` = 600 µs, not < `b` = 500 µs.
// The sentence is a finding about the reference GPU, NVIDIA H200, where it holds: 400 µs < 500 µs."
// A value from a stale record says so, with the date it was measured (stale_mark).
std::string claim_verdict(const ClaimResult& c, const std::string& gpu,
                          const std::string& reference_gpu) {
  const std::string open = "<span class=\"claim-verdict\">", close = "</span>";
  const bool beside = c.reference_status.has_value() || c.reference_elsewhere;
  const ReferenceVerdict after =
      c.reference_elsewhere
          ? ReferenceVerdict{" On the reference GPU, " + html_text(reference_gpu) +
                                 ", another variant of this passage stands here.",
                             ""}
      : beside ? reference_verdict(c, reference_gpu)
               : ReferenceVerdict{};
  std::string on = gpu.empty() ? "this GPU" : html_text(gpu);
  if (beside) on = "yours, " + on;
  const bool broken = c.status == ClaimResult::Status::broken;
  auto folded = [&](const std::string& summary, const std::string& body) {
    return "<details class=\"claim-verdict\"><summary>" + summary + (broken ? "" : after.summary) +
           "</summary>\n\n" + body + (!body.empty() && !after.body.empty() ? "\n" : "") +
           after.body + "\n</details>";
  };
  const bool measured =
      c.status == ClaimResult::Status::holds || c.status == ClaimResult::Status::broken;
  std::string summary;
  if (c.status == ClaimResult::Status::unmeasured)
    summary = "Not yet checked: " + c.evaluation.result.message + ".";
  else if (c.status == ClaimResult::Status::not_checked)
    summary = "Not checked on " + on + ": " + c.evaluation.result.message + ".";
  else if (c.status == ClaimResult::Status::holds)
    summary =
        "Holds on " + on + counted(comparisons_count(c.evaluation), stale_mark(c.evaluation)) + ".";
  else
    summary = broken_summary(c, html_text(gpu), reference_gpu);
  if (!measured && after.body.empty()) return open + summary + after.summary + close;
  return folded(summary, measured ? comparisons_list(c.evaluation) : "");
}

}  // namespace weave
