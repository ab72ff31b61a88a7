// The expressions inside [ ... ]{.m} spans and claims' expr="...": a recursive-descent parser.
//
//   claim      := comparison ("and" comparison)*
//   comparison := sum ("<" | "<=" | ">" | ">=") sum
//   sum        := product (("+" | "-") product)*
//   product    := power (("*" | "/") power)*
//   power      := unary ("^" power)?
//   unary      := "-" unary | primary
//   primary    := NUMBER | "(" sum ")" | KEY ":" QUANTITY
//
// A KEY is a result key (`reduce/v1_naive@2^28`, `matmul/v3@4096x4096x4096`) or `machine`; it
// may hold letters, digits and / @ ^ x . _ -, so operators beside a key need a space before them.
// A QUANTITY is a name with an optional statistic: time, time.min, time.max, time.spread.
#pragma once
#include <memory>
#include <optional>
#include <string>

namespace weave {

struct Term {
  std::string key;           // normalised: 2^28 written as 268435456
  std::string quantity;      // time, bandwidth, copy_bandwidth, sm_count, ...
  std::string statistic;     // median (the default), min, max, spread
  std::string text() const;  // "reduce/v1@268435456 : time.min"
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  enum class Op { number, term, neg, add, sub, mul, div, pow, lt, le, gt, ge, both };
  Op op = Op::number;
  double number = 0;
  Term term;
  ExprPtr left, right;  // right is empty for neg
};

// Parses a value expression (no comparisons) or, with `claim`, a claim. On failure returns
// nothing and puts in `error` what is wrong, with the column it was found at.
std::optional<ExprPtr> parse_expression(const std::string& text, bool claim, std::string& error);

// `reduce/v1@2^28` -> `reduce/v1@268435456`; `@4096x4096x4096` is kept. Fails on a power that
// does not fit in 63 bits or an argument that is not a number.
std::optional<std::string> normalise_key(const std::string& key, std::string& error);

// The expression written back in normal form, for titles and the claims report.
std::string to_text(const Expr& expr);

}  // namespace weave
