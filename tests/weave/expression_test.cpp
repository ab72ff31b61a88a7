// The expression parser: precedence, keys with their odd characters, 2^28 in a key, and errors
// that say where the expression went wrong.
#include <gtest/gtest.h>

#include "expression.h"

namespace weave {
namespace {

ExprPtr parse(const std::string& text, bool claim = false) {
  std::string error;
  auto e = parse_expression(text, claim, error);
  EXPECT_TRUE(e) << text << ": " << error;
  return e ? *e : nullptr;
}

std::string failure(const std::string& text, bool claim = false) {
  std::string error;
  auto e = parse_expression(text, claim, error);
  EXPECT_FALSE(e) << text << " should not parse";
  return error;
}

TEST(Expression, ATermIsAKeyAndAQuantity) {
  ExprPtr e = parse("reduce/v1_naive@2^28 : bandwidth");
  ASSERT_EQ(e->op, Expr::Op::term);
  EXPECT_EQ(e->term.key, "reduce/v1_naive@268435456");
  EXPECT_EQ(e->term.quantity, "bandwidth");
  EXPECT_EQ(e->term.statistic, "median");
}

TEST(Expression, KeysKeepShapesAndOddCharacters) {
  EXPECT_EQ(parse("matmul/v3_smem-tiled.x@4096x4096x4096 : time")->term.key,
            "matmul/v3_smem-tiled.x@4096x4096x4096");
  EXPECT_EQ(parse("fusion/short@2^15x4096 : time")->term.key, "fusion/short@32768x4096");
  EXPECT_EQ(parse("machine : copy_bandwidth")->term.key, "machine");
}

TEST(Expression, StatisticsAreSuffixes) {
  EXPECT_EQ(parse("a/b@1 : time.min")->term.statistic, "min");
  EXPECT_EQ(parse("a/b@1 : time.max")->term.statistic, "max");
  EXPECT_EQ(parse("a/b@1 : time.spread")->term.statistic, "spread");
  EXPECT_NE(failure("a/b@1 : time.mean").find(".min, .max or .spread"), std::string::npos);
}

TEST(Expression, PrecedenceAndParentheses) {
  EXPECT_EQ(to_text(*parse("1 + 2 * 3")), "1 + 2 * 3");
  ExprPtr e = parse("(1 + 2) * 3");
  ASSERT_EQ(e->op, Expr::Op::mul);
  EXPECT_EQ(e->left->op, Expr::Op::add);
  EXPECT_EQ(to_text(*e), "(1 + 2) * 3");
  EXPECT_EQ(to_text(*parse("a/b@2^4 : bandwidth / machine : copy_bandwidth")),
            "a/b@16 : bandwidth / machine : copy_bandwidth");
  EXPECT_EQ(parse("2 - -3")->right->op, Expr::Op::neg);
}

// tools.md WV08: a title reads back as the expression it names: each power's and minus sign's
// compound side in parentheses ((2^3)^2 and 2^3^2 were both "2^3^2", 2^(1/2) was "2^1 / 2").
TEST(Expression, ATitleReadsBackAsItsExpression) {
  const std::pair<const char*, const char*> cases[] = {
      {"2 ^ (1/2)", "2^(1 / 2)"}, {"(2 ^ 3) ^ 2", "(2^3)^2"}, {"2 ^ 3 ^ 2", "2^(3^2)"},
      {"(-2) ^ 2", "(-2)^2"},     {"-(2 * 3)", "-(2 * 3)"},   {"4 * 2^28", "4 * 2^28"}};
  for (const auto& [text, shown] : cases) {
    EXPECT_EQ(to_text(*parse(text)), shown) << text;
    EXPECT_EQ(to_text(*parse(to_text(*parse(text)))), shown) << text;  // and reads back the same
  }
}

TEST(Expression, ASpanMayWrapOverLines) {
  EXPECT_EQ(to_text(*parse("machine :\ncopy_bandwidth")), "machine : copy_bandwidth");
}

TEST(Expression, ClaimsCompareAndJoinWithAnd) {
  ExprPtr e = parse("a/x@1 : time < 0.6 * a/y@1 : time and a/x@1 : time >= 1e-6", true);
  ASSERT_EQ(e->op, Expr::Op::both);
  EXPECT_EQ(e->left->op, Expr::Op::lt);
  EXPECT_EQ(e->right->op, Expr::Op::ge);
  EXPECT_NE(failure("a/x@1 : time", true).find("needs a comparison"), std::string::npos);
  EXPECT_NE(failure("a/x@1 : time < 2").find("belongs in a claim"), std::string::npos);
}

// A literal may carry a unit, spelt as fmt= spells one: it is read into base units and written back
// as it was; a word that is no unit after a number (a claim's "and") leaves the number plain.
TEST(Expression, LiteralsWithUnits) {
  ExprPtr e = parse("machine : sm_count * 256 KiB");
  ASSERT_EQ(e->op, Expr::Op::mul);
  EXPECT_DOUBLE_EQ(e->right->number, 262144);
  EXPECT_EQ(e->right->unit, units::bytes);
  EXPECT_EQ(to_text(*e), "machine : sm_count * 256 KiB");
  EXPECT_EQ(parse("128 B * machine : sm_count")->left->unit, units::bytes);
  EXPECT_EQ(parse("2 us")->unit, units::seconds);
  EXPECT_DOUBLE_EQ(parse("2 us")->number, 2e-6);
  EXPECT_EQ(parse("8 B / 2 FLOP")->right->unit, units::flops);
  ExprPtr claim = parse("a/b@1 : time < 5 and a/b@1 : time > 1", true);
  EXPECT_EQ(claim->op, Expr::Op::both);
  EXPECT_EQ(claim->left->right->unit, units::none);
}

TEST(Expression, ErrorsSayWhatAndWhere) {
  EXPECT_NE(failure("reduce/v1 + 2").find("needs ' : quantity'"), std::string::npos);
  EXPECT_NE(failure("(1 + 2").find("not closed"), std::string::npos);
  EXPECT_NE(failure("1 +").find("ends where a value was expected"), std::string::npos);
  EXPECT_NE(failure("1 2").find("column 3"), std::string::npos);
  EXPECT_NE(failure("a/b@2^99 : time").find("too large"), std::string::npos);
  EXPECT_NE(failure("a : ").find("quantity name"), std::string::npos);
}

TEST(NormaliseKey, PowersBecomeIntegers) {
  std::string error;
  EXPECT_EQ(normalise_key("reduce/v1@2^28", error), "reduce/v1@268435456");
  EXPECT_EQ(normalise_key("reduce/v1@2^10x3", error), "reduce/v1@1024x3");
  EXPECT_EQ(normalise_key("reduce/v1", error), "reduce/v1");
  EXPECT_FALSE(normalise_key("reduce/v1@2^", error));
}

}  // namespace
}  // namespace weave
