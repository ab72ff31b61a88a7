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

bool opens_claim(const std::string& line) { return is_claim_opening(line); }

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
  const size_t open = opening.find("expr=\"");
  const size_t close = open == std::string::npos ? open : opening.find('"', open + 6);
  if (close == std::string::npos) {
    diagnostics.error(
        file, line, "a claim needs its relation: ::: {.claim expr=\"a : time < 0.6 * b : time\"}");
    return c;
  }
  c.expr = opening.substr(open + 6, close - open - 6);
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

// "`a` = 0.71 not < `b` = 0.75; ...": each comparison with both sides' values.
std::string comparisons_text(const Evaluation& evaluation) {
  std::string parts;
  for (const Comparison& k : evaluation.comparisons) {
    std::string relation = k.holds ? k.op : "not " + k.op;
    parts += std::string(parts.empty() ? "" : "; ") + "`" + k.left_text + "` = " + shown(k.left) +
             " " + relation + " `" + k.right_text + "` = " + shown(k.right);
  }
  return parts;
}

// The verdict on the reference GPU, after this GPU's: "On the reference, NVIDIA H200: held (...)."
std::string reference_verdict(const ClaimResult& c, const std::string& reference_gpu) {
  const std::string on = " On the reference GPU, " + reference_gpu + ": ";
  switch (*c.reference_status) {
    case ClaimResult::Status::holds:
      return on + "held (" + comparisons_text(c.reference_evaluation) + ").";
    case ClaimResult::Status::broken:
      return on + "broken too (" + comparisons_text(c.reference_evaluation) + ").";
    case ClaimResult::Status::unmeasured:
    case ClaimResult::Status::not_checked:
      return on + "not checked (" + c.reference_evaluation.result.message + ").";
    case ClaimResult::Status::invalid:
      return on + "not checked (" + c.reference_evaluation.result.message + ").";
  }
  return "";
}

}  // namespace

// The verdict as an HTML <span> tag pair, not a bracketed span [...]{.claim-verdict}: Pandoc reads
// both into the same span, but it parsed a bracketed span of a long verdict (dozens of code spans)
// several times over, once per way a '[' can open, and the verdicts were most of the book's
// Markdown reading time (issue 11, build speed: 24 s -> 8 s over the chapters; same HTML).
// Woven for a GPU other than the reference, "this GPU" is "yours" and the reference's verdict
// follows: "**Broken on yours, NVIDIA L4:** ... On the reference GPU, NVIDIA H200: held (...)."
std::string claim_verdict(const ClaimResult& c, const std::string& gpu,
                          const std::string& reference_gpu) {
  const std::string open = "<span class=\"claim-verdict\">", close = "</span>";
  const bool beside = c.reference_status.has_value();
  const std::string after = beside ? reference_verdict(c, reference_gpu) : "";
  std::string on = gpu.empty() ? "this GPU" : gpu;
  if (beside) on = "yours, " + on;
  if (c.status == ClaimResult::Status::unmeasured)
    return open + "Not yet checked: " + c.evaluation.result.message + "." + after + close;
  if (c.status == ClaimResult::Status::not_checked)
    return open + "Not checked on " + on + ": " + c.evaluation.result.message + "." + after + close;
  std::string parts = comparisons_text(c.evaluation);
  if (c.status == ClaimResult::Status::holds)
    return open + "Holds on " + on + ": " + parts + "." + after + close;
  return open + "**Broken on " + on + ":** " + parts + ". This sentence needs revisiting." + after +
         close;
}

}  // namespace weave
