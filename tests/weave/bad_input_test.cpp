// Every kind of bad input: the weaver names the file (and line) with what to do, exits 2, and
// leaves the previous woven book exactly as it was.
#include <gtest/gtest.h>

#include <functional>

#include "fixture.h"

namespace weave {
namespace {

using testing::FixtureBook;

struct BadInput {
    const char* name;
    std::function<void(const FixtureBook&)> spoil;
    const char* expected;  // a part of what weave prints
};

void PrintTo(const BadInput& input, std::ostream* out) { *out << input.name; }

class BadInputs : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputs, AreNamedAndLeaveThePreviousOutputIntact) {
    FixtureBook book;
    ASSERT_EQ(book.weave().status, 0);
    auto before = book.outputs();
    ASSERT_FALSE(before.empty());
    GetParam().spoil(book);
    auto run = book.weave();
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.printed.find(GetParam().expected), std::string::npos) << run.printed;
    EXPECT_EQ(book.outputs(), before);
}

const std::string alpha = "chapters/1-alpha.md";
const std::string record = "book/measurements/testgpu/1.json";

INSTANTIATE_TEST_SUITE_P(
    Weave, BadInputs,
    ::testing::Values(
        BadInput{"TruncatedRecord",
                 [](const FixtureBook& b) { b.write(record, b.read(record).substr(0, 200)); },
                 "book/measurements/testgpu/1.json: error: is not a valid measurement record: [json.exception.parse_error.101] parse error at line"},
        BadInput{"CorruptRecord",
                 [](const FixtureBook& b) { b.replace(record, "\"results\": {", "\"results\": {,"); },
                 "book/measurements/testgpu/1.json: error: is not a valid measurement record"},
        BadInput{"RecordWithoutMedian",
                 [](const FixtureBook& b) { b.replace(record, "\"median\": 4.0e-4,", ""); },
                 "1.json: error: result 'alpha/v2_fast@1048576', quantity 'time': needs a numeric \"median\""},
        BadInput{"RecordForAnUnknownChapter",
                 [](const FixtureBook& b) {
                     std::string text = b.read(record);
                     text.replace(text.find("\"chapter\": \"1\""), 14, "\"chapter\": \"7\"");
                     b.write("book/measurements/testgpu/7.json", text);
                 },
                 "book/measurements/testgpu/7.json: error: is a record for chapter \"7\", but no chapter"},
        BadInput{"RecordNamedForAnotherChapter",
                 [](const FixtureBook& b) { b.replace(record, "\"chapter\": \"1\"", "\"chapter\": \"2\""); },
                 "1.json: error: says it is chapter \"2\""},
        BadInput{"ClaimOverAMissingKey",
                 [](const FixtureBook& b) { b.replace(alpha, "0.5 * alpha/v1_naive@2^20", "0.5 * alpha/v1_naive@2^21"); },
                 "chapters/1-alpha.md:24: error: claim 'alpha/v2_fast@1048576 : time < 0.5 * alpha/v1_naive@2097152 : time': no result 'alpha/v1_naive@2097152'"},
        BadInput{"ClaimWithoutExpression",
                 [](const FixtureBook& b) { b.replace(alpha, "::: {.claim expr=\"alpha/v2_fast@2^20 : time < 0.5", "::: {.claim x=\"alpha/v2_fast@2^20 : time < 0.5"); },
                 "chapters/1-alpha.md:24: error: a claim needs its relation"},
        BadInput{"ValueOverAMissingKey",
                 [](const FixtureBook& b) { b.replace(alpha, "[alpha/v1_naive@2^20 : time]{.m}", "[alpha/v1_naive@2^20 : latency]{.m}"); },
                 "chapters/1-alpha.md:17: error: [alpha/v1_naive@2^20 : latency]{.m}: book/measurements/testgpu/1.json: the result 'alpha/v1_naive@1048576' has no quantity 'latency'"},
        BadInput{"FigureWithNoCeilings",
                 [](const FixtureBook& b) { b.remove("book/measurements/testgpu/machine.json"); },
                 "chapters/1-alpha.md:43: error: roofline:1: chapter 1 has kernels but no ceilings"},
        BadInput{"FigureOfNoChapter",
                 [](const FixtureBook& b) { b.replace(alpha, "(roofline:1)", "(roofline:9)"); },
                 "chapters/1-alpha.md:43: error: roofline:9 names no chapter"},
        BadInput{"UnknownSymbol",
                 [](const FixtureBook& b) { b.replace(alpha, "symbols: [B_copy, N_SM,", "symbols: [B_copy, N_TPC,"); },
                 "chapters/1-alpha.md:5: error: unknown symbol 'N_TPC': define it in book/symbols.json"},
        BadInput{"SymbolWithoutItsProperty",
                 [](const FixtureBook& b) { b.replace("book/measurements/testgpu/machine.json", "\"l2_bytes\": 62914560,", ""); },
                 "chapters/1-alpha.md:5: error: symbol L2 (machine : l2_bytes): book/measurements/testgpu/machine.json has no ceiling or property 'l2_bytes'"},
        BadInput{"UnterminatedDiv",
                 [](const FixtureBook& b) { b.replace(alpha, "A plain div passes through, with [machine : sm_count]{.m} SMs and [machine : sm_clock_max_mhz]{.m}.\n:::", "A plain div, never closed."); },
                 "chapters/1-alpha.md:39: error: this ::: div is never closed"},
        BadInput{"StrayClosingFence",
                 [](const FixtureBook& b) { b.replace(alpha, "An opening paragraph before the box.", "An opening paragraph.\n\n:::"); },
                 "chapters/1-alpha.md:15: error: this ::: closes a div that was never opened"},
        BadInput{"UnterminatedCodeBlock",
                 [](const FixtureBook& b) { b.write("chapters/B-symbols.md", b.read("chapters/B-symbols.md") + "\n```cpp\nint x;\n"); },
                 "chapters/B-symbols.md:10: error: this code block is never closed"},
        BadInput{"MalformedSpan",
                 [](const FixtureBook& b) { b.replace(alpha, "[machine : copy_bandwidth]{.m}.", "[machine : copy_bandwidth]{.m."); },
                 "chapters/1-alpha.md:19: error: a malformed {.m} span"},
        BadInput{"BadFmt",
                 [](const FixtureBook& b) { b.replace(alpha, "[machine : copy_bandwidth]{.m}.", "[machine : copy_bandwidth]{.m fmt=\"ms\"}."); },
                 "chapters/1-alpha.md:19: error: [machine : copy_bandwidth]{.m}: fmt=\"ms\" is a unit of s, but the value is in B/s"},
        BadInput{"BadFrontMatter",
                 [](const FixtureBook& b) { b.replace(alpha, "id: \"1\"", "id \"1\""); },
                 "chapters/1-alpha.md:2: error: front matter: expected 'key: value'"},
        BadInput{"MissingChapter",
                 [](const FixtureBook& b) { b.write("book/chapters.txt", b.read("book/chapters.txt") + "chapters/9-gone.md\n"); },
                 "book/chapters.txt:5: error: chapters/9-gone.md does not exist"},
        BadInput{"BadSymbolsFile",
                 [](const FixtureBook& b) { b.write("book/symbols.json", "{\"symbols\": ["); },
                 "book/symbols.json: error: is not valid JSON"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace weave
