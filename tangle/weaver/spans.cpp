#include "spans.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "format.h"
#include "math_ranges.h"

namespace weave {
namespace {

struct Attributes {
  bool value = false;     // has the class .m
  bool misspelt = false;  // has the class .M: a typo Pandoc would render as the raw expression
  std::string fmt;
  int digits = 3;
  std::string error;
};

// Reads {.m fmt="%" digits=2}: classes, key="value" and key=value pairs.
Attributes read_attributes(const std::string& text) {
  Attributes a;
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t end = text.find_first_of(" \t\n", i);
    size_t eq = text.find('=', i);
    if (eq != std::string::npos && (end == std::string::npos || eq < end)) {
      std::string key = text.substr(i, eq - i), value;
      i = eq + 1;
      if (i < text.size() && text[i] == '"') {
        size_t close = text.find('"', i + 1);
        if (close == std::string::npos) {
          a.error = "the value of " + key + "= has no closing quote";
          return a;
        }
        value = text.substr(i + 1, close - i - 1);
        i = close + 1;
      } else {
        end = text.find_first_of(" \t\n", i);
        value = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
        i = end == std::string::npos ? text.size() : end;
      }
      if (key == "fmt")
        a.fmt = value;
      else if (key == "digits")  // a whole number, as written: 1.5 and " 2" were read as 1 and 2
        a.digits = !value.empty() && value.size() <= 2 &&
                           value.find_first_not_of("0123456789") == std::string::npos
                       ? std::atoi(value.c_str())
                       : 0;  // format_value says what digits= takes
      else if (a.error.empty())
        a.error = "unknown attribute " + key + "= (a {.m} span takes fmt= and digits=)";
      continue;
    }
    std::string token = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (token == ".m") a.value = true;
    if (token == ".M") a.misspelt = true;
    i = end == std::string::npos ? text.size() : end;
  }
  return a;
}

// A record's words inside a bracketed span: its brackets escaped, so the span ends where it should.
std::string escape_brackets(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '[' || c == ']' ? std::string("\\") + c : std::string(1, c);
  return out;
}

// A span as quoted in a message: its first 120 bytes (cut between characters), so 100 000
// parentheses make a message of one line, not of 200 KB (tools.md, W6-W9's note).
std::string quoted_span(const std::string& text, const char* classes = ".m") {
  size_t cut = text.size() <= 120 ? text.size() : 120;
  while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  return "[" + text.substr(0, cut) + (cut < text.size() ? "..." : "") + "]{" + classes + "}";
}

}  // namespace

namespace {

// A paragraph given alone: its code spans as cmark reads it.
CodeRanges code_of(const std::string& paragraph) {
  std::vector<std::string> lines;
  for (size_t start = 0, end;; start = end + 1) {
    end = paragraph.find('\n', start);
    lines.push_back(paragraph.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) break;
  }
  return code_ranges(read_blocks(lines, 1).code_spans, paragraph, 1);
}

}  // namespace

std::vector<size_t> closing_brackets(const std::string& s) {
  return closing_brackets(s, code_of(s));
}

// One pass with a stack, not a scan from each '[' (a paragraph of 100 000 '[' took 36 s,
// tools.md Z7). As a scan from the '[' would: a backslash hides the character after it (but a
// '[' right after one still closes where a scan from it would end), and a code span or a blank
// line ends every bracket still open.
std::vector<size_t> closing_brackets(const std::string& s, const CodeRanges& code) {
  std::vector<size_t> closes(s.size(), std::string::npos);
  std::vector<size_t> open;                       // the unescaped '[' not yet closed
  std::vector<std::pair<size_t, size_t>> hidden;  // an escaped '[': (position, open.size() then)
  auto next_code = code.begin();
  for (size_t i = 0; i < s.size(); ++i) {
    if (next_code != code.end() && i == next_code->first) {  // no bracket in it, none across it
      open.clear();
      hidden.clear();
      i = next_code++->second - 1;
      continue;
    }
    if (s[i] == '\\') {
      if (i + 1 < s.size() && s[i + 1] == '[') hidden.emplace_back(i + 1, open.size());
      ++i;
      continue;
    }
    if (s[i] == '[') open.push_back(i);
    if (s[i] == ']') {
      while (!hidden.empty() && hidden.back().second == open.size()) {
        closes[hidden.back().first] = i;
        hidden.pop_back();
      }
      if (!open.empty()) {
        closes[open.back()] = i;
        open.pop_back();
      }
    }
    if (s.compare(i, 2, "\n\n") == 0) {
      open.clear();
      hidden.clear();
    }
  }
  return closes;
}

std::string attribute_text(std::string text) {
  for (char& c : text)
    if (c == '"') c = '\'';
  return text;
}

std::string value_span(const Value& value, const std::string& title, const std::string& fmt,
                       int digits, std::string& error) {
  if (value.state == Value::State::unmeasured && value.not_run)
    return "[" + escape_brackets(value.message) + "]{.unmeasured .not-run title=\"" +
           attribute_text(title) + "\"}";
  if (value.state == Value::State::unmeasured)
    return "[not yet measured]{.unmeasured title=\"" +
           attribute_text(title + ": " + value.message) + "\"}";
  auto text = format_value(value.number, value.unit, fmt, digits, error);
  if (!text) return "";
  return "[" + *text + "]{.measured title=\"" + attribute_text(title) + "\"}";
}

namespace {

// " (NVIDIA H200: [1.2 ms]{.measured ...})": the reference GPU's value beside one this GPU did not
// give; nothing when there is no reference or it has no value either.
std::string reference_beside(const Expr& expr, const std::string& title, const Attributes& a,
                             const InlineContext& context) {
  if (!context.reference) return "";
  const Evaluation e = context.reference->evaluate(expr);
  const Value& v = e.result;
  if (v.state != Value::State::known) return "";
  std::string error, stale;
  if (const TermValue* t = first_stale(e))  // measured with code that has changed since
    stale = ", stale: measured " +
            (t->measured.empty() ? std::string("on an unrecorded date")
                                 : "on " + t->measured.substr(0, 10)) +
            " with earlier code";
  std::string span =
      value_span(v, title + ", on " + context.reference_gpu + stale, a.fmt, a.digits, error);
  return span.empty() ? "" : " (" + context.reference_gpu + stale + ": " + span + ")";
}

// The classes of a span's attributes ({.when expr="..."}: ".when"), quoted values skipped.
std::vector<std::string> classes_of(const std::string& text) {
  std::vector<std::string> classes;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '"' || text[i] == '\'') {
      const size_t close = text.find(text[i], i + 1);
      i = close == std::string::npos ? text.size() : close + 1;
      continue;
    }
    const size_t end = std::min(text.find_first_of(" \t\n\"'", i), text.size());
    if (text[i] == '.' && end > i + 1) classes.push_back(text.substr(i, end - i));
    i = std::max(end, i + 1);
  }
  return classes;
}

bool has(const std::vector<std::string>& classes, const char* name) {
  return std::find(classes.begin(), classes.end(), name) != classes.end();
}

// Enough of a variant's text for its first words.
constexpr size_t kWords = 400;

// One span of the inline form: [text]{.when expr="..."} or [text]{.otherwise}.
struct InlineOption {
  size_t open = 0, close = 0, end = 0;  // its '[', its ']', just past its '}'
  VariantOption option;
};

// The chapter line of each offset of a paragraph, in log time (a count of the newlines before
// each of 45 000 spans of a 1 MB paragraph would be quadratic).
class LineIndex {
 public:
  LineIndex(const std::string& text, int first_line) : first_line_(first_line) {
    for (size_t i = text.find('\n'); i != std::string::npos; i = text.find('\n', i + 1))
      newlines_.push_back(i);
  }
  int operator()(size_t position) const {
    return first_line_ +
           static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), position) -
                            newlines_.begin());
  }

 private:
  int first_line_;
  std::vector<size_t> newlines_;
};

// The chain of variant spans that starts at the '[' at `i` of `line`: [A]{.when expr="..."}
// [B]{.when expr="..."}[C]{.otherwise} with no space between, each relation read.
std::vector<InlineOption> read_chain(const std::string& line, size_t i,
                                     const std::vector<size_t>& closes, const LineIndex& line_at,
                                     InlineContext& context) {
  std::vector<InlineOption> chain;
  for (size_t at = i; at < line.size() && line[at] == '[';) {
    const size_t close = closes[at];
    if (close == std::string::npos || close + 1 >= line.size() || line[close + 1] != '{') break;
    const size_t brace = line.find('}', close + 1);
    if (brace == std::string::npos) break;
    const std::string attributes = line.substr(close + 2, brace - close - 2);
    const std::vector<std::string> classes = classes_of(attributes);
    const bool otherwise = has(classes, ".otherwise");
    if (!otherwise && !has(classes, ".when")) break;
    if (!chain.empty() && chain.back().option.otherwise) break;  // the .otherwise is the last
    chain.push_back(
        {at, close, brace + 1,
         read_option(attributes, otherwise, line_at(at), context.file, *context.diagnostics)});
    // its first words (a few hundred bytes give eight words, whatever it holds)
    chain.back().option.words = first_words(line.substr(at + 1, std::min(close - at - 1, kWords)));
    at = brace + 1;
  }
  if (!chain.empty() && chain.front().option.otherwise)
    context.diagnostics->error(
        context.file, line_at(i),
        "a [...]{.otherwise} span stands right after a [...]{.when expr=\"...\"} span (no space "
        "between): the first of them whose relation holds is woven");
  return chain;
}

// The choice a chain stands for, its options in order, none chosen yet.
VariantChoice inline_choice(const std::vector<InlineOption>& chain, int line,
                            const InlineContext& context) {
  VariantChoice choice;
  choice.line = line;
  choice.inline_form = true;
  choice.parent = context.parent;
  choice.parent_option = context.parent_option;
  for (const InlineOption& o : chain) choice.options.push_back(o.option);
  return choice;
}

}  // namespace

void record_inline_variants(const std::string& paragraph, int first_line, InlineContext& context) {
  const CodeRanges code = context.code_spans
                              ? code_ranges(*context.code_spans, paragraph, first_line)
                              : code_of(paragraph);
  const std::vector<size_t> closes = closing_brackets(paragraph, code);
  const LineIndex line_at(paragraph, first_line);
  for (size_t i = 0; i < paragraph.size(); ++i) {
    if (paragraph[i] != '[') continue;
    const std::vector<InlineOption> chain = read_chain(paragraph, i, closes, line_at, context);
    if (chain.empty()) continue;
    if (context.variants) context.variants->push_back(inline_choice(chain, line_at(i), context));
    i = chain.back().end - 1;
  }
}

std::string weave_inline(const std::string& line, int first_line, InlineContext& context) {
  const CodeRanges code =
      context.code_spans ? code_ranges(*context.code_spans, line, first_line) : code_of(line);
  const std::vector<size_t> closes = closing_brackets(line, code);
  const CodeRanges maths = math_ranges(line, code);
  auto next_math = maths.begin();
  const CodeRanges links = link_destinations(line, closes);
  auto next_link = links.begin();
  auto next_code = code.begin();
  std::string out;
  size_t i = 0;
  // A paragraph's lines are woven together, so a span may wrap; messages name the line it starts
  // on.
  const LineIndex line_at(line, first_line);
  auto error = [&](const std::string& what) {
    context.diagnostics->error(context.file, line_at(i), what);
  };
  // The inline form's variants: what is not woven of them (a variant not chosen, the brackets and
  // attributes of the one chosen), by where it starts.
  std::map<size_t, size_t> skips;
  // The chain of variant spans that starts at `i`: the first of them that holds is woven.
  auto variant_chain = [&]() {
    const std::vector<InlineOption> chain = read_chain(line, i, closes, line_at, context);
    VariantChoice choice = inline_choice(chain, line_at(i), context);
    for (size_t k = 0; k < chain.size() && !choice.decided; ++k) {
      const VariantOption& o = chain[k].option;
      if (!o.otherwise && !o.parsed) {
        choice.decided = true;  // said where it was read
        break;
      }
      const Tried tried = try_option(o, *context.scope);
      if (tried.outcome == Tried::Outcome::fails) continue;
      choice.decided = true;
      if (tried.outcome == Tried::Outcome::holds)
        choice.chosen = static_cast<int>(k);
      else
        choice.problem = report_cannot(o, tried.why, context.file, *context.diagnostics,
                                       context.unmeasured_lines);
    }
    for (size_t k = 0; k < chain.size(); ++k) {
      const InlineOption& o = chain[k];
      if (static_cast<int>(k) == choice.chosen) {
        skips[o.open] = o.open + 1;
        skips[o.close] = o.end;
      } else {
        skips[o.open] = o.end;
      }
    }
    if (choice.chosen < 0 && !choice.problem.empty())
      out += "[not yet measured]{.unmeasured title=\"" +
             attribute_text("which words stand here depends on values not recorded yet: " +
                            choice.problem) +
             "\"}";
    if (context.variants) context.variants->push_back(std::move(choice));
  };
  while (i < line.size()) {
    if (auto skip = skips.find(i); skip != skips.end()) {
      i = skip->second;
      skips.erase(skip);
      continue;
    }
    char c = line[i];
    while (next_code != code.end() && next_code->first < i) ++next_code;  // passed inside a span
    if (next_code != code.end() && next_code->first == i) {  // inline code: copied as written
      out += line.substr(i, next_code->second - i);
      i = next_code++->second;
      continue;
    }
    // A backslash-escaped character is text (CommonMark): \[machine : sm_count]{.m} opens no
    // span and is copied as written (tools.md WV05: it was woven, and the page read
    // "[132]{.measured title=...}")
    if (c == '\\' && i + 1 < line.size()) {
      size_t end = i + 2;  // an escaped [...]{...} is copied whole: its braces are text too
      if (line[i + 1] == '[' && closes[i + 1] != std::string::npos &&
          closes[i + 1] + 1 < line.size() && line[closes[i + 1] + 1] == '{')
        end = std::min(line.find('}', closes[i + 1]), line.size() - 1) + 1;
      out += line.substr(i, end - i);
      i = end;
      continue;
    }
    if (line.compare(i, 11, "](roofline:") == 0) {
      size_t close = line.find(')', i);
      std::string id =
          line.substr(i + 11, close == std::string::npos ? std::string::npos : close - i - 11);
      if (close == std::string::npos) {
        error("a roofline figure needs ')': ![caption](roofline:ID)");
        out += line.substr(i);
        break;
      }
      std::string target = context.figure ? context.figure(id, line_at(i)) : "";
      size_t image = out.rfind("![");
      if (target == kUnmeasuredFigure && image != std::string::npos) {
        std::string caption = out.substr(image + 2);
        out.erase(image);
        out += "[*" + caption +
               "*: the roofline is drawn once this GPU's ceilings are measured (not yet "
               "measured).]{.unmeasured}";
      } else {
        out += "](" + (target.empty() ? "roofline:" + id : target) + ")";
      }
      i = close + 1;
      continue;
    }
    if (c == '[') {
      size_t close = closes[i];
      size_t brace_end =
          close != std::string::npos && close + 1 < line.size() && line[close + 1] == '{'
              ? line.find('}', close + 1)
              : std::string::npos;
      if (brace_end != std::string::npos) {
        const std::string attributes = line.substr(close + 2, brace_end - close - 2);
        const std::vector<std::string> classes = classes_of(attributes);
        if (has(classes, ".when") || has(classes, ".otherwise")) {
          variant_chain();
          continue;
        }
        Attributes a = read_attributes(attributes);
        if (a.misspelt && !a.value)
          error(quoted_span(line.substr(i + 1, close - i - 1), ".M") +
                ": a value's class is .m, lower case; "
                "as written the expression would be printed as it stands");
        while (next_math != maths.end() && next_math->second <= i) ++next_math;
        if (a.value && next_math != maths.end() && next_math->first < i) {
          error(quoted_span(line.substr(i + 1, close - i - 1)) +
                ": a woven value inside TeX maths ($...$ or $$...$$): Pandoc cannot read a "
                "span there and would print the maths as raw TeX; close the maths before the "
                "value and open it again after");
          out += line.substr(i, brace_end + 1 - i);
          i = brace_end + 1;
          continue;
        }
        while (next_link != links.end() && next_link->second <= i) ++next_link;
        if (a.value && next_link != links.end() && next_link->first <= i) {  // tools.md WV06
          error(quoted_span(line.substr(i + 1, close - i - 1)) +
                ": a woven value inside a link's destination, [text](...): Pandoc would put "
                "the span's Markdown into the URL; move the value into the link's text or out of "
                "the link");
          out += line.substr(i, brace_end + 1 - i);
          i = brace_end + 1;
          continue;
        }
        if (a.value) {
          std::string text = line.substr(i + 1, close - i - 1), problem = a.error;
          std::string span;
          if (problem.empty()) {
            auto expr = parse_expression(text, false, problem);
            if (expr) {
              Evaluation e = context.scope->evaluate(**expr);
              std::string title = to_text(**expr);
              if (e.terms.size() == 1 && to_text(**expr) == e.terms[0].text &&
                  !e.terms[0].detail.empty())
                title += ", " + e.terms[0].detail;
              if (e.result.state == Value::State::error)
                problem = e.result.message;
              else
                span = value_span(e.result, title, a.fmt, a.digits, problem);
              if (e.result.state == Value::State::unmeasured && e.result.not_run) {
                context.not_run_lines.push_back(line_at(i));
                span += reference_beside(**expr, title, a, context);
              } else if (e.result.state == Value::State::unmeasured) {
                context.unmeasured_lines.push_back(line_at(i));
              }
            }
          }
          if (!problem.empty()) error(quoted_span(text) + ": " + problem);
          out += span.empty() ? line.substr(i, brace_end + 1 - i) : span;
          i = brace_end + 1;
          continue;
        }
      }
    }
    if (line.compare(i, 3, "{.m") == 0 &&
        (i + 3 == line.size() || !(std::isalnum(static_cast<unsigned char>(line[i + 3])) ||
                                   line[i + 3] == '_' || line[i + 3] == '-')))
      error(
          "a malformed {.m} span: write [EXPRESSION]{.m fmt=\"...\"}, the brackets closed and the "
          "braces after them");
    out += c;
    ++i;
  }
  return out;
}

}  // namespace weave
