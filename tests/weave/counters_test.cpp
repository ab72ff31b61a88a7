// Hardware counters in a record (make measure's profile: results): woven like any quantity, with
// their units, and a counter the record lacks is an error at the chapter line that says why.
#include <gtest/gtest.h>

#include "fixture.h"

namespace weave {
namespace {

using testing::FixtureBook;

const std::string alpha = "chapters/1-alpha.md";
const std::string record = "book/measurements/testgpu/1.json";

// alpha/v1_naive@2^20 as tangle/measure/ncu.py records it: one profiled iteration per counter.
void add_counters(const FixtureBook& book) {
  book.replace(
      record,
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"})",
      R"("bytes": {"median": 4194304, "min": 4194304, "max": 4194304, "n": 10, "unit": "B"},
      "dram_bytes": {"median": 4718592, "min": 4718592, "max": 4718592, "n": 1, "unit": "B"},
      "fp32_flops": {"median": 1048576, "min": 1048576, "max": 1048576, "n": 1, "unit": "FLOP"},
      "kernel_time": {"median": 9.5e-4, "min": 9.5e-4, "max": 9.5e-4, "n": 1, "unit": "s"},
      "shared_bank_conflicts": {"median": 63488, "min": 63488, "max": 63488, "n": 1, "unit": ""},
      "achieved_occupancy": {"median": 0.5, "min": 0.5, "max": 0.5, "n": 1, "unit": ""},
      "profiled_kernels": {"median": 2, "min": 2, "max": 2, "n": 1, "unit": ""})");
}

TEST(Counters, AreWovenWithTheirUnits) {
  FixtureBook book;
  add_counters(book);
  book.replace(
      alpha, "An opening paragraph before the box.",
      "Counted: [alpha/v1_naive@2^20 : dram_bytes / alpha/v1_naive@2^20 : bytes]{.m fmt=\"x\"} the "
      "model's bytes, [alpha/v1_naive@2^20 : dram_bytes / alpha/v1_naive@2^20 : time]{.m "
      "fmt=\"GB/s\"}, "
      "[alpha/v1_naive@2^20 : fp32_flops]{.m}, [alpha/v1_naive@2^20 : kernel_time]{.m fmt=\"us\"}, "
      "[alpha/v1_naive@2^20 : shared_bank_conflicts]{.m} conflicts, "
      "[alpha/v1_naive@2^20 : achieved_occupancy]{.m fmt=\"%\"} occupancy.");
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  const std::string woven = book.outputs()["1-alpha.md"];
  for (const char* part :
       {"Counted: [1.13×]{.measured", "[4.72 GB/s]{.measured", "[1.05 MFLOP]{.measured",
        "[950 µs]{.measured", "[63488]{.measured", "[50%]{.measured"})
    EXPECT_NE(woven.find(part), std::string::npos) << part << "\n" << woven.substr(0, 900);
  EXPECT_NE(woven.find("title=\"alpha/v1_naive@1048576 : fp32_flops, one sample\""),
            std::string::npos);
}

TEST(Counters, AMissingCounterIsAnErrorAtItsLine) {
  FixtureBook book;
  add_counters(book);
  book.replace(alpha, "An opening paragraph before the box.",
               "Counted: [alpha/v2_fast@2^20 : dram_bytes]{.m}.");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(
      run.printed.find(
          "chapters/1-alpha.md:13: error: [alpha/v2_fast@2^20 : dram_bytes]{.m}: "
          "book/measurements/testgpu/1.json: the result 'alpha/v2_fast@1048576' has no quantity "
          "'dram_bytes' (it has: time); no hardware counters were recorded for it: list it in "
          "the chapter's profile: front matter"),
      std::string::npos)
      << run.printed;
  // A profiled result that lacks one counter gets no such hint: the name is what is wrong.
  book.replace(alpha, "[alpha/v2_fast@2^20 : dram_bytes]", "[alpha/v1_naive@2^20 : dram_byte]");
  run = book.weave();
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(
      run.printed.find(
          "has no quantity 'dram_byte' (it has: achieved_occupancy, bandwidth, bytes, dram_bytes"),
      std::string::npos)
      << run.printed;
  EXPECT_EQ(run.printed.find("no hardware counters were recorded"), std::string::npos)
      << run.printed;
}

TEST(Counters, AMissingCounterOfAStaleRecordIsNotYetMeasured) {
  FixtureBook book;
  add_counters(book);
  book.replace(alpha, "An opening paragraph before the box.",
               "Counted: [alpha/v1_naive@2^20 : shared_atomic_wavefronts]{.m}.");
  book.write("src/alpha/alpha.cu", "// changed\n");  // the record predates the code: stale
  auto run = book.weave();
  ASSERT_EQ(run.status, 0) << run.printed;
  const std::string woven = book.outputs()["1-alpha.md"];
  EXPECT_NE(woven.find("Counted: [not yet measured]{.unmeasured"), std::string::npos) << woven;
  EXPECT_NE(woven.find("has no quantity 'shared_atomic_wavefronts'"), std::string::npos) << woven;
  EXPECT_EQ(book.weave(true).status, 2);  // a strict build still refuses it
}

}  // namespace
}  // namespace weave
