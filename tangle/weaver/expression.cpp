#include "expression.h"

#include "format.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace weave {
namespace {

bool key_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '@' || c == '^' ||
         c == '.' || c == '_' || c == '-';
}
bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Bounds on one expression, so that parsing, evaluating, printing and freeing its tree (all
// recursive) stay far from the stack's end: 20 000 nested parentheses, or a sum of 20 000
// terms, overflowed it (tools.md C2). The book's largest expression has a few dozen nodes.
constexpr int kMaxDepth = 100;       // nested parentheses, unary minuses and powers
constexpr int kMaxNodes = 1000;      // numbers, terms and operators
constexpr size_t kShownChars = 120;  // of an expression quoted in an error

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  ExprPtr claim() {
    ExprPtr e = comparison();
    while (ok() && word("and")) e = make(Expr::Op::both, e, comparison());
    finish();
    return e;
  }
  ExprPtr value() {
    ExprPtr e = sum();
    skip();
    if (ok() && i_ < s_.size() && (s_[i_] == '<' || s_[i_] == '>'))
      fail("a comparison belongs in a claim (::: {.claim expr=\"...\"}), not in a {.m} value");
    finish();
    return e;
  }
  const std::string& error() const { return error_; }

 private:
  bool ok() const { return error_.empty(); }
  void fail(const std::string& what) {
    std::string shown = s_.size() <= kShownChars ? s_ : s_.substr(0, kShownChars) + "...";
    if (ok()) error_ = what + " (at column " + std::to_string(i_ + 1) + " of '" + shown + "')";
  }
  ExprPtr make(Expr::Op op, ExprPtr left, ExprPtr right = nullptr) {
    if (++nodes_ == kMaxNodes)
      fail("the expression has more than " + std::to_string(kMaxNodes) +
           " parts: split it, or name a part in book/symbols.json");
    auto e = std::make_shared<Expr>();
    e->op = op;
    e->left = std::move(left);
    e->right = std::move(right);
    return e;
  }
  // One level deeper for the life of the guard; past kMaxDepth the parse fails and stops there.
  struct Deeper {
    explicit Deeper(Parser& p) : p(p) {
      if (++p.depth_ > kMaxDepth)
        p.fail("the expression nests more than " + std::to_string(kMaxDepth) +
               " levels deep (parentheses, minus signs, powers): write it flatter");
    }
    ~Deeper() { --p.depth_; }
    Parser& p;
  };
  ExprPtr leaf() { return std::make_shared<Expr>(); }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* token) {
    skip();
    std::string t = token;
    if (s_.compare(i_, t.size(), t) != 0) return false;
    i_ += t.size();
    return true;
  }
  bool word(const char* w) {
    skip();
    std::string t = w;
    if (s_.compare(i_, t.size(), t) != 0) return false;
    if (i_ + t.size() < s_.size() && key_char(s_[i_ + t.size()])) return false;
    i_ += t.size();
    return true;
  }
  void finish() {
    skip();
    if (ok() && i_ < s_.size()) fail("unexpected '" + s_.substr(i_) + "'");
  }

  ExprPtr comparison() {
    ExprPtr left = sum();
    skip();
    Expr::Op op;
    if (eat("<="))
      op = Expr::Op::le;
    else if (eat(">="))
      op = Expr::Op::ge;
    else if (eat("<"))
      op = Expr::Op::lt;
    else if (eat(">"))
      op = Expr::Op::gt;
    else {
      fail("a claim needs a comparison: <, <=, > or >=");
      return left;
    }
    return make(op, left, sum());
  }
  ExprPtr sum() {
    Deeper deeper(*this);
    if (!ok()) return leaf();
    ExprPtr e = product();
    while (ok()) {
      if (eat("+"))
        e = make(Expr::Op::add, e, product());
      else if (eat("-"))
        e = make(Expr::Op::sub, e, product());
      else
        break;
    }
    return e;
  }
  ExprPtr product() {
    ExprPtr e = power();
    while (ok()) {
      if (eat("*"))
        e = make(Expr::Op::mul, e, power());
      else if (eat("/"))
        e = make(Expr::Op::div, e, power());
      else
        break;
    }
    return e;
  }
  ExprPtr power() {
    Deeper deeper(*this);
    if (!ok()) return leaf();
    ExprPtr base = unary();
    if (ok() && eat("^")) return make(Expr::Op::pow, base, power());
    return base;
  }
  ExprPtr unary() {
    Deeper deeper(*this);
    if (!ok()) return leaf();
    if (eat("-")) return make(Expr::Op::neg, unary());
    return primary();
  }
  ExprPtr primary() {
    skip();
    auto e = std::make_shared<Expr>();
    if (i_ >= s_.size()) {
      fail("the expression ends where a value was expected");
      return e;
    }
    char c = s_[i_];
    if (c == '(') {
      ++i_;
      ExprPtr inner = sum();
      if (ok() && !eat(")")) fail("a '(' is not closed");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* start = s_.c_str() + i_;
      char* end = nullptr;
      e->number = std::strtod(start, &end);
      if (end == start) fail("a number was expected");
      i_ += end - start;
      size_t after = i_;  // a unit after a space: `128 B`, `256 KiB`; else the number is plain
      skip();
      size_t word = i_;
      while (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '/' ||
                                static_cast<unsigned char>(s_[i_]) >= 0x80))
        ++i_;
      std::string text = s_.substr(word, i_ - word);
      std::string shown;
      auto unit = i_ > after && word > after ? parse_fixed_unit(text, shown) : std::nullopt;
      if (unit && (i_ >= s_.size() || !key_char(s_[i_]))) {
        e->number *= unit->first;
        e->unit = unit->second;
        e->unit_text = text;
        e->unit_factor = unit->first;
      } else {
        i_ = after;
      }
      return e;
    }
    if (!name_start(c)) {
      fail(std::string("'") + c + "' cannot start a value");
      return e;
    }
    size_t start = i_;
    while (i_ < s_.size() && key_char(s_[i_])) ++i_;
    std::string key = s_.substr(start, i_ - start);
    if (!eat(":")) {
      fail("'" + key + "' needs ' : quantity' after it, as in 'reduce/v1@2^28 : time'");
      return e;
    }
    skip();
    size_t q = i_;
    if (i_ < s_.size() && name_start(s_[i_]))
      while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    if (q == i_) {
      fail("a quantity name (time, bandwidth, ...) was expected after '" + key + " :'");
      return e;
    }
    e->op = Expr::Op::term;
    e->term.quantity = s_.substr(q, i_ - q);
    e->term.statistic = "median";
    if (i_ < s_.size() && s_[i_] == '.') {
      size_t d = ++i_;
      while (i_ < s_.size() && name_char(s_[i_])) ++i_;
      e->term.statistic = s_.substr(d, i_ - d);
      if (e->term.statistic != "median" && e->term.statistic != "min" &&
          e->term.statistic != "max" && e->term.statistic != "spread")
        fail("'." + e->term.statistic +
             "' is not a statistic: use .min, .max or .spread (the median is the default)");
    }
    std::string error;
    auto normal = normalise_key(key, error);
    if (!normal)
      fail(error);
    else
      e->term.key = *normal;
    return e;
  }

  const std::string& s_;
  size_t i_ = 0;
  std::string error_;
  int depth_ = 0;
  int nodes_ = 0;
};

}  // namespace

std::string Term::text() const {
  return key + " : " + quantity + (statistic == "median" ? "" : "." + statistic);
}

std::optional<std::string> normalise_key(const std::string& key, std::string& error) {
  size_t at = key.find('@');
  if (at == std::string::npos) return key;
  std::string out = key.substr(0, at + 1), args = key.substr(at + 1);
  size_t start = 0;
  while (true) {
    size_t x = args.find('x', start);
    std::string arg = args.substr(start, x == std::string::npos ? std::string::npos : x - start);
    size_t caret = arg.find('^');
    if (caret != std::string::npos) {
      char* end = nullptr;
      long long base = std::strtoll(arg.c_str(), &end, 10);
      long long exponent = std::strtoll(arg.c_str() + caret + 1, nullptr, 10);
      bool digits =
          arg.find_first_not_of("0123456789^") == std::string::npos && end == arg.c_str() + caret;
      if (!digits || base < 0 || exponent < 0 || caret + 1 == arg.size()) {
        error = "'" + arg + "' in the key '" + key + "' is not a power like 2^28";
        return std::nullopt;
      }
      // 0^n and 1^n never grow: computed, not looped (1^9999999999999 ran for ever, tools.md
      // C3); any other base passes 2^62 within 63 steps, where the loop stops.
      unsigned long long value = 1;
      if (base <= 1) value = (base == 0 && exponent > 0) ? 0 : 1;
      for (long long k = 0; base > 1 && k < exponent; ++k) {
        if (base != 0 && value > (1ull << 62) / static_cast<unsigned long long>(base)) {
          error = "'" + arg + "' in the key '" + key + "' is too large";
          return std::nullopt;
        }
        value *= static_cast<unsigned long long>(base);
      }
      arg = std::to_string(value);
    }
    out += arg;
    if (x == std::string::npos) break;
    out += 'x';
    start = x + 1;
  }
  return out;
}

std::optional<ExprPtr> parse_expression(const std::string& text, bool claim, std::string& error) {
  Parser parser(text);
  ExprPtr e = claim ? parser.claim() : parser.value();
  if (!parser.error().empty()) {
    error = parser.error();
    return std::nullopt;
  }
  return e;
}

std::string to_text(const Expr& e) {
  auto binary = [&](const char* op) {
    return to_text(*e.left) + " " + op + " " + to_text(*e.right);
  };
  auto grouped = [&](const ExprPtr& side) {
    bool low = side->op == Expr::Op::add || side->op == Expr::Op::sub;
    return low ? "(" + to_text(*side) + ")" : to_text(*side);
  };
  // a power's sides and a minus sign's operand: a number or a term as it is, anything else in
  // parentheses, so the text reads back as the same expression
  auto atom = [&](const ExprPtr& side) {
    bool plain = side->op == Expr::Op::number || side->op == Expr::Op::term;
    return plain ? to_text(*side) : "(" + to_text(*side) + ")";
  };
  switch (e.op) {
    case Expr::Op::number: {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.12g", e.number / e.unit_factor);
      return e.unit_text.empty() ? std::string(buffer) : std::string(buffer) + " " + e.unit_text;
    }
    case Expr::Op::term:
      return e.term.text();
    case Expr::Op::neg:
      return "-" + atom(e.left);
    case Expr::Op::add:
      return binary("+");
    case Expr::Op::sub:
      return to_text(*e.left) + " - " + grouped(e.right);
    case Expr::Op::mul:
      return grouped(e.left) + " * " + grouped(e.right);
    case Expr::Op::div: {
      bool compound = e.right->op != Expr::Op::number && e.right->op != Expr::Op::term;
      return grouped(e.left) + " / " +
             (compound ? "(" + to_text(*e.right) + ")" : to_text(*e.right));
    }
    case Expr::Op::pow:  // tools.md WV08: (2^3)^2 and 2^3^2 were both "2^3^2", 2^(1/2) "2^1 / 2"
      return atom(e.left) + "^" + atom(e.right);
    case Expr::Op::lt:
      return binary("<");
    case Expr::Op::le:
      return binary("<=");
    case Expr::Op::gt:
      return binary(">");
    case Expr::Op::ge:
      return binary(">=");
    case Expr::Op::both:
      return binary("and");
  }
  return "";
}

}  // namespace weave
