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

std::string claim_opening(const ClaimResult& c) {
  const char* verdict = c.status == ClaimResult::Status::holds    ? ".claim-holds"
                        : c.status == ClaimResult::Status::broken ? ".claim-broken"
                        : c.status == ClaimResult::Status::not_checked
                            ? ".claim-unmeasured .claim-not-checked"
                            : ".claim-unmeasured";
  return "::: {.claim " + std::string(verdict) + " data-expr=\"" + attribute_text(c.expr) + "\"}";
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

// " (all 3 comparisons)" for a claim that holds, "1 of 3 comparisons fails. " for one that does
// not; nothing for a claim of one comparison.
std::string comparisons_count(const Evaluation& evaluation, bool holds) {
  size_t n = evaluation.comparisons.size(), failing = 0;
  for (const Comparison& k : evaluation.comparisons) failing += k.holds ? 0 : 1;
  if (n <= 1) return "";
  if (holds) return n == 2 ? " (both comparisons)" : " (all " + std::to_string(n) + " comparisons)";
  return std::to_string(failing) + " of " + std::to_string(n) + " comparisons " +
         (failing == 1 ? "fails" : "fail") + ". ";
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

// The reference GPU's verdict, a word for the summary and its comparisons for the fold.
struct ReferenceVerdict {
  std::string summary, body;
};
ReferenceVerdict reference_verdict(const ClaimResult& c, const std::string& reference_gpu) {
  const std::string on = " On the reference GPU, " + html_text(reference_gpu) + ": ";
  const Evaluation& e = c.reference_evaluation;
  switch (*c.reference_status) {
    case ClaimResult::Status::holds:
      return {on + "held.", on.substr(1) + "held.\n\n" + comparisons_list(e)};
    case ClaimResult::Status::broken:
      return {on + "broken too.", on.substr(1) + "broken too.\n\n" + comparisons_list(e)};
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
// follows: "**Broken on yours, NVIDIA L4:** ... On the reference GPU, NVIDIA H200: held."
std::string claim_verdict(const ClaimResult& c, const std::string& gpu,
                          const std::string& reference_gpu) {
  const std::string open = "<span class=\"claim-verdict\">", close = "</span>";
  const bool beside = c.reference_status.has_value();
  const ReferenceVerdict after = beside ? reference_verdict(c, reference_gpu) : ReferenceVerdict{};
  std::string on = gpu.empty() ? "this GPU" : html_text(gpu);
  if (beside) on = "yours, " + on;
  auto folded = [&](const std::string& summary, const std::string& body) {
    return "<details class=\"claim-verdict\"><summary>" + summary + after.summary +
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
    summary = "Holds on " + on + comparisons_count(c.evaluation, true) + ".";
  else
    summary = "**Broken on " + on + ":** " + comparisons_count(c.evaluation, false) +
              "This sentence needs revisiting.";
  if (!measured && after.body.empty()) return open + summary + after.summary + close;
  return folded(summary, measured ? comparisons_list(c.evaluation) : "");
}

}  // namespace weave
