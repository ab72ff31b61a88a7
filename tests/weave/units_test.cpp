// The unit rule of book/CONVENTIONS.md ("Units"), as the weaver applies it to records made before
// every quantity named its unit: by name, the explicit table, the dimensionless list, and nothing
// for a name no rule covers. tests/measure/test_measure.py checks measure.py's copy of the rule
// against the same names.
#include <gtest/gtest.h>

#include "units.h"

namespace weave {
namespace {

std::string unit_text(const std::string& name) {
  auto unit = unit_by_name(name);
  if (!unit) return "(none)";
  std::string text = unit->unit == units::none ? "1" : to_string(unit->unit);
  return unit->scale == 1e6 ? "M" + text : text;
}

TEST(Units, BySuffix) {
  EXPECT_EQ(unit_text("predicted_time"), "s");
  EXPECT_EQ(unit_text("floor_time"), "s");
  EXPECT_EQ(unit_text("block_time"), "s");
  EXPECT_EQ(unit_text("model_latency"), "s");
  EXPECT_EQ(unit_text("model_bytes"), "B");
  EXPECT_EQ(unit_text("bytes_in_flight_per_sm"), "B");
  EXPECT_EQ(unit_text("saturation_bytes_in_flight"), "B");
  EXPECT_EQ(unit_text("fp32_flops"), "FLOP");
  EXPECT_EQ(unit_text("predicted_bandwidth"), "B/s");
  EXPECT_EQ(unit_text("dram_bandwidth"), "B/s");
  EXPECT_EQ(unit_text("fp32_fma_rate"), "FLOP/s");
  EXPECT_EQ(unit_text("sm_clock_mhz"), "MHz");
  EXPECT_EQ(unit_text("k07_start"), "s");
}

TEST(Units, ByName) {
  EXPECT_EQ(unit_text("time"), "s");
  EXPECT_EQ(unit_text("bytes"), "B");
  EXPECT_EQ(unit_text("flops"), "FLOP");
  EXPECT_EQ(unit_text("bandwidth"), "B/s");
  EXPECT_EQ(unit_text("flop_rate"), "FLOP/s");
  EXPECT_EQ(unit_text("latency"), "s");
  EXPECT_EQ(unit_text("read_ceiling"), "B/s");
  EXPECT_EQ(unit_text("per_launch"), "s");
  EXPECT_EQ(unit_text("fetch_granularity"), "B");
}

TEST(Units, DeclaredDimensionless) {
  for (const char* name : {"warp_instructions", "sm_count", "achieved_occupancy", "stall_barrier",
                           "limited_by_warps", "throttled", "eta", "waves", "measured_error",
                           "warp_instructions_alu", "sms_matching_balanced_rule"})
    EXPECT_EQ(unit_text(name), "1") << name;
}

TEST(Units, NoRuleNoUnit) {
  EXPECT_EQ(unit_text("frobnication"), "(none)");
  auto unknown = unit_of_quantity("frobnication", "");
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(unknown->unit.known);
}

// A unit the record names wins; "" (a record made before the rule) takes the name's.
TEST(Units, RecordedBeforeTheRule) {
  EXPECT_EQ(unit_of_quantity("predicted_time", "")->unit, units::seconds);
  EXPECT_EQ(unit_of_quantity("model_bytes", "")->unit, units::bytes);
  EXPECT_EQ(unit_of_quantity("warp_instructions", "")->unit, units::none);
  EXPECT_EQ(unit_of_quantity("l2_bytes", "B")->unit, units::bytes);
  EXPECT_FALSE(unit_of_quantity("time", "furlongs"));
}

}  // namespace
}  // namespace weave
