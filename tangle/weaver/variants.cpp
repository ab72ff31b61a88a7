#include "variants.h"

#include <algorithm>
#include <map>

#include "line_shapes.h"
#include "spans.h"

namespace weave {

Tried try_option(const VariantOption& option, const Scope& scope) {
  if (option.otherwise) return {Tried::Outcome::holds, {}};
  if (!option.parsed) return {Tried::Outcome::cannot, {Value::State::error, 0, {}, "no relation"}};
  const Value result = scope.evaluate(*option.parsed).result;
  if (result.state != Value::State::known) return {Tried::Outcome::cannot, result};
  return {result.number != 0 ? Tried::Outcome::holds : Tried::Outcome::fails, {}};
}

Pick pick(const VariantChoice& choice, const Scope& scope) {
  Pick p;
  for (size_t i = 0; i < choice.options.size(); ++i) {
    const Tried t = try_option(choice.options[i], scope);
    if (t.outcome == Tried::Outcome::fails) continue;
    if (t.outcome == Tried::Outcome::holds)
      p.chosen = static_cast<int>(i);
    else
      p.failed = static_cast<int>(i), p.why = t.why;
    break;
  }
  return p;
}

VariantOption read_option(const std::string& opening, bool otherwise, int line,
                          const std::string& file, Diagnostics& diagnostics) {
  VariantOption o;
  o.otherwise = otherwise;
  o.line = line;
  if (otherwise) return o;
  const std::optional<std::string> written = quoted_attribute(opening, "expr");
  if (!written) {
    diagnostics.error(file, line,
                      "a variant needs its relation: {.when expr=\"machine : a < machine : b\"} "
                      "(the variant woven when none holds is {.otherwise})");
    return o;
  }
  std::string error;
  auto expr = parse_expression(*written, true, error);
  if (!expr) {
    diagnostics.error(file, line, "variant: " + error);
    return o;
  }
  o.parsed = *expr;
  o.expr = to_text(**expr);
  return o;
}

std::string report_cannot(const VariantOption& option, const Value& why, const std::string& file,
                          Diagnostics& diagnostics, std::vector<int>& unmeasured_lines) {
  if (why.state == Value::State::unmeasured && !why.not_run) {
    unmeasured_lines.push_back(option.line);
    return why.message;
  }
  if (why.state == Value::State::unmeasured)  // skipped, failed or not counted on this GPU
    diagnostics.error(file, option.line,
                      "variant '" + option.expr + "' cannot be chosen on this GPU: " + why.message +
                          "; a variant is chosen by values every GPU the book is woven for "
                          "records: choose by others (a machine ceiling, a timing every GPU "
                          "runs), or measure it on this GPU");
  else
    diagnostics.error(file, option.line, "variant '" + option.expr + "': " + why.message);
  return why.message;
}

std::string first_words(const std::string& whole) {
  const std::string text = whole.substr(0, 400);  // enough for eight words, however it nests
  std::string plain;
  const std::vector<size_t> closes = closing_brackets(text, {});  // (no cmark: this is a label)
  // the attributes of a span whose text is kept: where they end, and whether it is a variant
  std::map<size_t, std::pair<size_t, bool>> skips;
  size_t chain_end = std::string::npos;  // just past an inline variant: the next one is skipped
  for (size_t i = 0; i < text.size(); ++i) {
    if (auto skip = skips.find(i); skip != skips.end()) {
      i = skip->second.first;
      chain_end = skip->second.second ? i + 1 : std::string::npos;
      continue;
    }
    const size_t close = closes[i];
    if (text[i] == '[' && close != std::string::npos && close + 1 < text.size() &&
        text[close + 1] == '{') {
      const size_t brace = text.find('}', close);
      if (brace != std::string::npos) {
        const std::string attributes = text.substr(close + 2, brace - close - 2);
        const bool variant = attributes.find(".when") != std::string::npos ||
                             attributes.find(".otherwise") != std::string::npos;
        const bool skipped = attributes.starts_with(".m") || (variant && i == chain_end);
        if (attributes.starts_with(".m")) plain += "…";
        chain_end = variant ? brace + 1 : std::string::npos;
        if (skipped)
          i = brace;
        else
          skips[close] = {brace, variant};  // its text read on, its brackets and attributes dropped
        continue;
      }
    }
    plain += text[i] == '\n' || text[i] == '\t' ? ' ' : text[i];
  }
  std::string words;
  int n = 0;
  for (size_t i = 0; i < plain.size();) {
    const size_t start = plain.find_first_not_of(' ', i);
    if (start == std::string::npos) break;
    const size_t end = std::min(plain.find(' ', start), plain.size());
    if (++n > 8) return words + (words.ends_with("…") ? "" : " …");  // not "… …"
    words += (words.empty() ? "" : " ") + plain.substr(start, end - start);
    i = end;
  }
  return words;
}

}  // namespace weave
