// The measurement store: choosing the GPU's folder, reading records and machine.json, and the
// lookups by key (own record, other chapters', machine ceilings and properties).
#include <gtest/gtest.h>

#include "evaluate.h"
#include "fixture.h"
#include "measurements.h"

namespace weave {
namespace {

using testing::FixtureBook;

TEST(Measurements, TheOnlyGpuFolderIsChosen) {
  FixtureBook book;
  Diagnostics d;
  MeasurementStore store = load_measurements(book.root(), "book/measurements", "", d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(store.slug, "testgpu");
  EXPECT_EQ(store.folder, "book/measurements/testgpu");
  ASSERT_TRUE(store.machine);
  EXPECT_EQ(store.machine->ceilings.at("copy_bandwidth").median, 4.0e12);
  ASSERT_TRUE(store.record("1"));
  EXPECT_EQ(store.record("1")->results.at("alpha/v1_naive@1048576").at("time").n, 10);
}

TEST(Measurements, SeveralGpusNeedAChoice) {
  FixtureBook book;
  book.write("book/measurements/othergpu/machine.json",
             book.read("book/measurements/testgpu/machine.json"));
  // (its GPU's name, as the folder's: tools.md O2)
  for (int i = 0; i < 2; ++i)
    book.replace("book/measurements/othergpu/machine.json", "\"Test GPU\"", "\"Other GPU\"");
  Diagnostics d;
  load_measurements(book.root(), "book/measurements", "", d);
  ASSERT_TRUE(d.has_errors());
  EXPECT_NE(d.errors()[0].message.find("--gpu SLUG"), std::string::npos);
  Diagnostics chosen;
  EXPECT_EQ(load_measurements(book.root(), "book/measurements", "othergpu", chosen).slug,
            "othergpu");
  EXPECT_FALSE(chosen.has_errors());
}

TEST(Measurements, NoFolderMeansNothingMeasured) {
  FixtureBook book;
  Diagnostics d;
  MeasurementStore store = load_measurements(book.root(), "book/nowhere", "", d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_TRUE(store.records.empty());
  EXPECT_FALSE(store.machine);
}

TEST(Lookup, OwnRecordMachineAndUnmeasured) {
  FixtureBook book;
  Diagnostics d;
  MeasurementStore store = load_measurements(book.root(), "book/measurements/testgpu", "", d);
  std::map<std::string, std::string> chapters = {{"alpha", "1"}, {"beta", "2"}};
  Scope scope(store, "1", chapters);
  TermValue t = scope.lookup({"alpha/v1_naive@1048576", "time", "min"});
  EXPECT_EQ(t.value.number, 0.99e-3);
  EXPECT_EQ(t.value.unit, units::seconds);
  EXPECT_EQ(scope.lookup({"machine", "l2_bytes", "median"}).value.unit, units::bytes);
  EXPECT_EQ(scope.lookup({"beta/v1@1", "time", "median"}).value.state, Value::State::unmeasured);
  TermValue missing = scope.lookup({"alpha/v1_naive@2", "time", "median"});
  EXPECT_EQ(missing.value.state, Value::State::error);
  EXPECT_NE(missing.value.message.find("alpha/v1_naive@1048576"),
            std::string::npos);  // suggests what exists
  EXPECT_NE(scope.lookup({"alpha/v2_fast@1048576", "bandwidth", "median"})
                .value.message.find("has no quantity"),
            std::string::npos);
  EXPECT_NE(
      scope.lookup({"machine", "warp_size", "median"}).value.message.find("no ceiling or property"),
      std::string::npos);
}

TEST(Evaluate, UnitsFollowTheArithmetic) {
  FixtureBook book;
  Diagnostics d;
  MeasurementStore store = load_measurements(book.root(), "book/measurements/testgpu", "", d);
  std::map<std::string, std::string> chapters;
  Scope scope(store, "1", chapters);
  auto eval = [&](const std::string& text) {
    std::string error;
    return scope.evaluate(**parse_expression(text, false, error)).result;
  };
  EXPECT_EQ(eval("machine : l2_bytes / alpha/v1_naive@2^20 : time").unit, units::bytes_per_s);
  EXPECT_EQ(eval("alpha/v1_naive@2^20 : time / alpha/v2_fast@2^20 : time").unit, units::none);
  EXPECT_DOUBLE_EQ(eval("alpha/v1_naive@2^20 : time / alpha/v2_fast@2^20 : time").number, 2.5);
  EXPECT_NE(
      eval("alpha/v1_naive@2^20 : time + machine : l2_bytes").message.find("cannot add s and B"),
      std::string::npos);
  // Device properties take their unit by name (a clock in MHz is read into Hz once), and a
  // literal may carry one: the DRAM peak is a rate, not a frequency.
  EXPECT_EQ(eval("2 * machine : memory_clock_mhz * machine : memory_bus_bits * 1 B / 8").unit,
            units::bytes_per_s);
  EXPECT_DOUBLE_EQ(
      eval("2 * machine : memory_clock_mhz * machine : memory_bus_bits * 1 B / 8").number,
      2 * 3201e6 * 6144 / 8);
  EXPECT_EQ(eval("machine : sm_clock_max_mhz").unit, units::hertz);
  EXPECT_DOUBLE_EQ(eval("machine : sm_clock_max_mhz").number, 1980e6);
  EXPECT_EQ(eval("machine : sm_count * 256 KiB").unit, units::bytes);
  EXPECT_DOUBLE_EQ(eval("machine : sm_count * 256 KiB").number, 132 * 262144.0);
  // The forgotten-factor mistake the unit rule now catches: a frequency is no bandwidth.
  EXPECT_NE(eval("machine : l2_bytes / alpha/v1_naive@2^20 : time + 2 * machine : memory_clock_mhz")
                .message.find("cannot add B/s and Hz"),
            std::string::npos);
  EXPECT_NE(eval("1 / (machine : sm_count - 132)").message.find("division by zero"),
            std::string::npos);
}

// tools.md WV07: a typed number is plain unless a unit follows it, and a plain number is no time:
// `time < 5` "held" with 1 ms < 5 and `time + 1` printed 1.00 s. Both are errors that say to give
// the number its unit; with the unit, or the typed 0, or a plain quantity of a record, they weave.
TEST(Evaluate, ATypedNumberWithoutItsUnitIsNoTime) {
  FixtureBook book;
  Diagnostics d;
  MeasurementStore store = load_measurements(book.root(), "book/measurements/testgpu", "", d);
  std::map<std::string, std::string> chapters;
  Scope scope(store, "1", chapters);
  auto eval = [&](const std::string& text) {
    std::string error;
    auto parsed = parse_expression(text, text.find_first_of("<>") != std::string::npos, error);
    if (!parsed) ADD_FAILURE() << text << ": " << error;
    return parsed ? scope.evaluate(**parsed).result : Value{Value::State::error, 0, {}, error};
  };
  for (const char* bad : {"alpha/v1_naive@2^20 : time < 5", "alpha/v1_naive@2^20 : time + 1",
                          "5 > alpha/v1_naive@2^20 : time", "alpha/v1_naive@2^20 : time - 2 / 4",
                          "machine : l2_bytes / alpha/v1_naive@2^20 : time > 128 / 2"}) {
    Value v = eval(bad);
    EXPECT_EQ(v.state, Value::State::error) << bad;
    EXPECT_NE(v.message.find("a plain number"), std::string::npos) << bad << ": " << v.message;
    EXPECT_NE(v.message.find("takes its unit after a space (5 us"), std::string::npos) << bad;
  }
  EXPECT_DOUBLE_EQ(eval("alpha/v1_naive@2^20 : time < 5 us").number, 0);  // 1 ms: not < 5 us
  EXPECT_DOUBLE_EQ(eval("alpha/v1_naive@2^20 : time < 5 ms").number, 1);
  EXPECT_EQ(eval("alpha/v1_naive@2^20 : time + 1 ms").unit, units::seconds);
  EXPECT_DOUBLE_EQ(eval("alpha/v1_naive@2^20 : time - alpha/v2_fast@2^20 : time > 0").number, 1);
  EXPECT_EQ(eval("0 + alpha/v1_naive@2^20 : time").unit, units::seconds);
  EXPECT_DOUBLE_EQ(eval("alpha/v1_naive@2^20 : time / alpha/v2_fast@2^20 : time > 2").number, 1);
  // a plain quantity of a record (machine : sm_count) beside a time: the record's word, as before
  EXPECT_EQ(eval("machine : sm_count * 1 ms > alpha/v1_naive@2^20 : time").state,
            Value::State::known);
}

}  // namespace
}  // namespace weave
