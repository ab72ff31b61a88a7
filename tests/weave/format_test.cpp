// How numbers reach the reader: SI prefixes, three significant digits, exact binary sizes,
// percentages, ratios and fixed units, and the errors for a fmt that does not fit.
#include <gtest/gtest.h>

#include "format.h"

namespace weave {
namespace {

std::string shown(double value, Unit unit, const std::string& fmt = "", int digits = 3) {
  std::string error;
  auto text = format_value(value, unit, fmt, digits, error);
  EXPECT_TRUE(text) << error;
  return text.value_or(error);
}

std::string refused(double value, Unit unit, const std::string& fmt) {
  std::string error;
  EXPECT_FALSE(format_value(value, unit, fmt, 3, error));
  return error;
}

TEST(Format, TimesTakeTheirPrefix) {
  EXPECT_EQ(shown(1.234e-3, units::seconds), "1.23 ms");
  EXPECT_EQ(shown(3.96e-6, units::seconds), "3.96 µs");
  EXPECT_EQ(shown(850e-9, units::seconds), "850 ns");
  EXPECT_EQ(shown(2.5, units::seconds), "2.50 s");
  EXPECT_EQ(shown(0.9996e-3, units::seconds), "1.00 ms");  // rounds up into the next prefix
}

TEST(Format, RatesTakeSIPrefixes) {
  EXPECT_EQ(shown(4.266e12, units::bytes_per_s), "4.27 TB/s");
  EXPECT_EQ(shown(912e9, units::bytes_per_s), "912 GB/s");
  EXPECT_EQ(shown(66.9e12, units::flops_per_s), "66.9 TFLOP/s");
  EXPECT_EQ(shown(1.98e9, units::hertz), "1.98 GHz");
}

TEST(Format, ExactBinarySizesStayBinary) {
  EXPECT_EQ(shown(62914560, units::bytes), "60 MiB");
  EXPECT_EQ(shown(1073741824, units::bytes), "1 GiB");
  EXPECT_EQ(shown(233472, units::bytes), "228 KiB");
  EXPECT_EQ(shown(1.6106e9, units::bytes), "1.61 GB");
  EXPECT_EQ(shown(512, units::bytes), "512 B");
}

// tools.md WV09: a rounding that carries moves the exponent, not the mantissa past 10
TEST(Format, ARoundingThatCarriesMovesTheExponent) {
  std::string error;
  EXPECT_EQ(*format_value(0.000099996, units::none, "", 3, error), "1.00×10^-4^");
  EXPECT_EQ(*format_value(-0.000099996, units::none, "", 3, error), "-1.00×10^-4^");
  EXPECT_EQ(*format_value(99999999.7, units::none, "", 3, error), "1.00×10^8^");
  EXPECT_EQ(*format_value(1e-320, units::none, "", 3, error), "1.00×10^-320^");
  EXPECT_EQ(*format_value(0.00012345, units::none, "", 3, error), "1.23×10^-4^");
}

// tools.md WV09 also said that 999.6 printed as 1000 shows four digits for three. It shows three:
// 999.6 to three significant digits is 1.00×10^3, and a plain number below 10^7 is written out,
// its last zeros holding the place, as 1234.5 is 1230 and 99.96 is 100 (book/SYNTAX.md). Kept.
// The same carry across 10^7 chose the form before rounding: 9999999.6 printed 10000000.
TEST(Format, ARoundingToThreeDigitsMayEndInZerosThatHoldThePlace) {
  EXPECT_EQ(shown(999.6, units::none), "1000");
  EXPECT_EQ(shown(999.4, units::none), "999");
  EXPECT_EQ(shown(1234.5, units::none), "1230");
  EXPECT_EQ(shown(99.96, units::none), "100");
  EXPECT_EQ(shown(9.996, units::none), "10.0");
  EXPECT_EQ(shown(9999999.6, units::none), "1.00×10^7^");
}

TEST(Format, PlainNumbers) {
  EXPECT_EQ(shown(132, units::none), "132");
  EXPECT_EQ(shown(0.9312, units::none), "0.931");
  EXPECT_EQ(shown(268435456, units::none), "2.68×10^8^");
}

// A clock recorded in MHz is read into Hz once (parse_unit's scale) and shown with one prefix:
// appendix A printed "0.00152 MHz" when a *_mhz value was rescaled a second time in the format.
TEST(Format, ClocksRescaledOnce) {
  ParsedUnit mhz = *parse_unit("MHz");
  EXPECT_EQ(shown(1520 * mhz.scale, mhz.unit), "1.52 GHz");
  EXPECT_EQ(shown(1520 * mhz.scale, mhz.unit, "MHz"), "1520 MHz");
  EXPECT_EQ(shown(1980 * mhz.scale, mhz.unit, "GHz"), "1.98 GHz");
  ParsedUnit property = unit_of_property("sm_clock_max_mhz");
  EXPECT_EQ(shown(1980 * property.scale, property.unit, "MHz"), "1980 MHz");
}

// A value without a unit is refused, whatever the fmt; a declared dimensionless one is a number.
TEST(Format, NoUnitIsAnError) {
  for (const char* fmt : {"", "ms", "%", "x"})
    EXPECT_NE(refused(2e-3, units::unknown, fmt).find("has no unit"), std::string::npos) << fmt;
  EXPECT_EQ(shown(9.41e8, units::none), "9.41×10^8^");
}

TEST(Format, PercentAndRatio) {
  EXPECT_EQ(shown(0.9312, units::none, "%"), "93.1%");
  EXPECT_EQ(shown(0.5, units::none, "%"), "50%");
  EXPECT_EQ(shown(2.5, units::none, "x"), "2.5×");
  EXPECT_EQ(shown(0.93, units::none, "x"), "0.93×");
  EXPECT_EQ(shown(0.93123, units::none, "%", 2), "93%");
  EXPECT_NE(refused(1e-3, units::seconds, "%").find("needs a ratio"), std::string::npos);
}

TEST(Format, FixedUnits) {
  EXPECT_EQ(shown(3.96e-6, units::seconds, "us"), "3.96 µs");
  EXPECT_EQ(shown(1.5e-3, units::seconds, "us"), "1500 µs");
  EXPECT_EQ(shown(4.266e12, units::bytes_per_s, "GB/s"), "4270 GB/s");
  EXPECT_EQ(shown(5.07e13, units::flops_per_s, "TFLOP/s"), "50.7 TFLOP/s");
  EXPECT_NE(refused(1e-3, units::seconds, "GB/s").find("is a unit of B/s"), std::string::npos);
  EXPECT_NE(refused(1e-3, units::seconds, "furlongs").find("unknown fmt"), std::string::npos);
}

TEST(Significant, DigitsAndZeros) {
  EXPECT_EQ(significant(1.2, 3), "1.20");
  EXPECT_EQ(significant(1.2, 3, true), "1.2");
  EXPECT_EQ(significant(0.001234, 3), "0.00123");
  EXPECT_EQ(significant(12345, 3), "12300");
  EXPECT_EQ(significant(-0.0001, 1), "-0.0001");
}

}  // namespace
}  // namespace weave
