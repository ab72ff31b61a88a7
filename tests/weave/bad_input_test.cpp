// Every kind of bad input: the weaver names the file (and line) with what to do, exits 2, and
// leaves the previous woven book exactly as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>

#include "fixture.h"

namespace weave {
namespace {

using testing::FixtureBook;
namespace fs = std::filesystem;

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
        // tools.md WV12: a median of no samples, and a date that is no day, were taken
        BadInput{"NoSamples",
                 [](const FixtureBook& b) {
                   b.replace(record,
                             "\"median\": 4.0e-4, \"min\": 3.9e-4, \"max\": 4.1e-4, \"n\": 10",
                             "\"median\": 4.0e-4, \"min\": 3.9e-4, \"max\": 4.1e-4, \"n\": 0");
                 },
                 "quantity 'time': has \"n\": 0, a median of no samples"},
        BadInput{"NoSuchDay",
                 [](const FixtureBook& b) {
                   b.replace(record, "2026-11-29T15:02:11Z", "2026-13-45T99:99:99Z");
                 },
                 "has the date \"2026-13-45T99:99:99Z\", which is not ISO 8601"},
        // tools.md WV11: a key twice in one object was read last wins, in silence
        BadInput{"DuplicateKey",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"median\": 4.0e-4,", "\"median\": 4.0e-4, \"median\": 9.0,");
                 },
                 "1.json: error: is not a valid measurement record: the key \"median\" is given "
                 "twice in one object"},
        BadInput{"DuplicateResults",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"results\": {", "\"results\": {}, \"results\": {");
                 },
                 "the key \"results\" is given twice in one object"},
        // tools.md WV10: digits=1.5 and digits=" 2" were read as 1 and 2
        BadInput{"FractionalDigits",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "A plain div passes through,",
                             "[machine : sm_count]{.m digits=1.5} A plain div passes through,");
                 },
                 "digits= must be a whole number from 1 to 12"},
        BadInput{"SpacedDigits",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "A plain div passes through,",
                             "[machine : sm_count]{.m digits=\" 2\"} A plain div passes through,");
                 },
                 "digits= must be a whole number from 1 to 12"},
        BadInput{"TruncatedRecord",
                 [](const FixtureBook& b) { b.write(record, b.read(record).substr(0, 200)); },
                 "book/measurements/testgpu/1.json: error: is not a valid measurement record: "
                 "[json.exception.parse_error.101] parse error at line"},
        BadInput{
            "CorruptRecord",
            [](const FixtureBook& b) { b.replace(record, "\"results\": {", "\"results\": {,"); },
            "book/measurements/testgpu/1.json: error: is not a valid measurement record"},
        BadInput{"RecordWithoutMedian",
                 [](const FixtureBook& b) { b.replace(record, "\"median\": 4.0e-4,", ""); },
                 "1.json: error: result 'alpha/v2_fast@1048576', quantity 'time': needs a numeric "
                 "\"median\""},
        // A counter recorded without a unit whose name follows no rule of CONVENTIONS ("Units")
        // is an error where it is woven, not a bare number on the page.
        BadInput{
            "WovenValueWithoutAUnit",
            [](const FixtureBook& b) {
              b.replace(
                  record, "\"bytes\": {\"median\": 4194304,",
                  "\"frobs\": {\"median\": 3, \"unit\": \"\"}, \"bytes\": {\"median\": 4194304,");
              b.replace(alpha, "A plain div passes through,",
                        "[alpha/v1_naive@2^20 : frobs]{.m} A plain div passes through,");
            },
            "'alpha/v1_naive@1048576 : frobs' has no unit"},
        BadInput{
            "ClaimOnAValueWithoutAUnit",
            [](const FixtureBook& b) {
              b.replace(
                  record, "\"bytes\": {\"median\": 4194304,",
                  "\"frobs\": {\"median\": 3, \"unit\": \"\"}, \"bytes\": {\"median\": 4194304,");
              b.replace(alpha, "A plain div passes through,",
                        "::: {.claim expr=\"alpha/v1_naive@2^20 : frobs < 4\"}\nFewer than "
                        "four.\n:::\n\nA plain div passes through,");
            },
            "has no unit"},
        BadInput{"SymbolSourceInTheWrongUnit",
                 [](const FixtureBook& b) {
                   b.replace("book/symbols.json", "\"source\": \"machine : sm_clock_max_mhz\"",
                             "\"source\": \"machine : sm_clock_max_mhz * 1e6 * 1 s\"");
                 },
                 "declared in \"Hz\" but its source gives"},
        BadInput{"RecordForAnUnknownChapter",
                 [](const FixtureBook& b) {
                   std::string text = b.read(record);
                   text.replace(text.find("\"chapter\": \"1\""), 14, "\"chapter\": \"7\"");
                   b.write("book/measurements/testgpu/7.json", text);
                 },
                 "book/measurements/testgpu/7.json: error: is a record for chapter \"7\", but no "
                 "chapter"},
        BadInput{"RecordNamedForAnotherChapter",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"chapter\": \"1\"", "\"chapter\": \"2\"");
                 },
                 "1.json: error: says it is chapter \"2\""},
        BadInput{"ClaimOverAMissingKey",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "0.5 * alpha/v1_naive@2^20", "0.5 * alpha/v1_naive@2^21");
                 },
                 "chapters/1-alpha.md:24: error: claim 'alpha/v2_fast@1048576 : time < 0.5 * "
                 "alpha/v1_naive@2097152 : time': no result 'alpha/v1_naive@2097152'"},
        BadInput{"ClaimWithoutExpression",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "::: {.claim expr=\"alpha/v2_fast@2^20 : time < 0.5",
                             "::: {.claim x=\"alpha/v2_fast@2^20 : time < 0.5");
                 },
                 "chapters/1-alpha.md:24: error: a claim needs its relation"},
        BadInput{"ValueOverAMissingKey",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "[alpha/v1_naive@2^20 : time]{.m}",
                             "[alpha/v1_naive@2^20 : latency]{.m}");
                 },
                 "chapters/1-alpha.md:17: error: [alpha/v1_naive@2^20 : latency]{.m}: "
                 "book/measurements/testgpu/1.json: the result 'alpha/v1_naive@1048576' has no "
                 "quantity 'latency'"},
        BadInput{
            "FigureWithNoCeilings",
            [](const FixtureBook& b) { b.remove("book/measurements/testgpu/machine.json"); },
            "chapters/1-alpha.md:43: error: roofline:1: chapter 1 has kernels but no ceilings"},
        BadInput{"FigureOfNoChapter",
                 [](const FixtureBook& b) { b.replace(alpha, "(roofline:1)", "(roofline:9)"); },
                 "chapters/1-alpha.md:43: error: roofline:9 names no chapter"},
        BadInput{
            "UnknownSymbol",
            [](const FixtureBook& b) {
              b.replace(alpha, "symbols: [B_copy, N_SM,", "symbols: [B_copy, N_TPC,");
            },
            "chapters/1-alpha.md:5: error: unknown symbol 'N_TPC': define it in book/symbols.json"},
        BadInput{"SymbolWithoutItsProperty",
                 [](const FixtureBook& b) {
                   b.replace("book/measurements/testgpu/machine.json", "\"l2_bytes\": 62914560,",
                             "");
                 },
                 "chapters/1-alpha.md:5: error: symbol L2 (machine : l2_bytes): "
                 "book/measurements/testgpu/machine.json has no ceiling or property 'l2_bytes'"},
        BadInput{"UnterminatedDiv",
                 [](const FixtureBook& b) {
                   b.replace(alpha,
                             "A plain div passes through, with [machine : sm_count]{.m} SMs and "
                             "[machine : sm_clock_max_mhz]{.m}.\n:::",
                             "A plain div, never closed.");
                 },
                 "chapters/1-alpha.md:39: error: this ::: div is never closed"},
        BadInput{"StrayClosingFence",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "An opening paragraph before the box.",
                             "An opening paragraph.\n\n:::");
                 },
                 "chapters/1-alpha.md:15: error: this ::: closes a div that was never opened"},
        BadInput{"UnterminatedCodeBlock",
                 [](const FixtureBook& b) {
                   b.write("chapters/B-symbols.md",
                           b.read("chapters/B-symbols.md") + "\n```cpp\nint x;\n");
                 },
                 "chapters/B-symbols.md:10: error: this code block is never closed"},
        BadInput{"MalformedSpan",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "[machine : copy_bandwidth]{.m}.",
                             "[machine : copy_bandwidth]{.m.");
                 },
                 "chapters/1-alpha.md:19: error: a malformed {.m} span"},
        BadInput{"ValueClassInCapitals",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "[machine : copy_bandwidth]{.m}.",
                             "[machine : copy_bandwidth]{.M}.");
                 },
                 "chapters/1-alpha.md:19: error: [machine : copy_bandwidth]{.M}: a value's class "
                 "is .m, lower case"},
        BadInput{"BadFmt",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "[machine : copy_bandwidth]{.m}.",
                             "[machine : copy_bandwidth]{.m fmt=\"ms\"}.");
                 },
                 "chapters/1-alpha.md:19: error: [machine : copy_bandwidth]{.m}: fmt=\"ms\" is a "
                 "unit of s, but the value is in B/s"},
        BadInput{"BadFrontMatter",
                 [](const FixtureBook& b) { b.replace(alpha, "id: \"1\"", "id \"1\""); },
                 "chapters/1-alpha.md:2: error: front matter: expected 'key: value'"},
        BadInput{"ChapterOutsideTheRoot",
                 [](const FixtureBook& b) {
                   b.write("book/chapters.txt", b.read("book/chapters.txt") + "../1-alpha.md\n");
                 },
                 "book/chapters.txt:5: error: ../1-alpha.md is outside the book's root"},
        BadInput{"MissingChapter",
                 [](const FixtureBook& b) {
                   b.write("book/chapters.txt",
                           b.read("book/chapters.txt") + "chapters/9-gone.md\n");
                 },
                 "book/chapters.txt:5: error: chapters/9-gone.md does not exist"},
        BadInput{"BadSymbolsFile",
                 [](const FixtureBook& b) { b.write("book/symbols.json", "{\"symbols\": ["); },
                 "book/symbols.json: error: is not valid JSON"},
        BadInput{"SymbolNotAnObject",
                 [](const FixtureBook& b) {
                   b.replace("book/symbols.json", "\"symbols\": [", "\"symbols\": [\"N_TPC\", ");
                 },
                 "book/symbols.json: error: symbol number 1 is not an object"},
        BadInput{"SymbolNameNotAString",
                 [](const FixtureBook& b) {
                   b.replace("book/symbols.json", "\"symbol\": \"L2\"", "\"symbol\": 2");
                 },
                 "book/symbols.json: error: symbol number 3 needs a string \"symbol\""},
        // A record's fields are checked for their type before they are read (these aborted the
        // weaver).
        BadInput{"RecordUnitNotAString",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"n\": 10, \"unit\": \"s\"}", "\"n\": 10, \"unit\": 5}");
                 },
                 "1.json: error: result 'alpha/v1_naive@1048576', quantity 'time': has a \"unit\" "
                 "that is not a string (5)"},
        BadInput{"RecordCountNotANumber",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"n\": 10, \"unit\": \"s\"}",
                             "\"n\": \"ten\", \"unit\": \"s\"}");
                 },
                 "1.json: error: result 'alpha/v1_naive@1048576', quantity 'time': has an \"n\" "
                 "that is not a count of samples (\"ten\")"},
        BadInput{"RecordNegativeCount",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"n\": 10, \"unit\": \"s\"}", "\"n\": -3, \"unit\": \"s\"}");
                 },
                 "quantity 'time': has an \"n\" that is not a count of samples (-3)"},
        BadInput{"RecordMedianNotANumber",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"median\": 4.0e-4,", "\"median\": \"4.0e-4\",");
                 },
                 "1.json: error: result 'alpha/v2_fast@1048576', quantity 'time': needs a numeric "
                 "\"median\" (it is \"4.0e-4\")"},
        BadInput{
            "RecordMinNotANumber",
            [](const FixtureBook& b) { b.replace(record, "\"min\": 3.9e-4", "\"min\": null"); },
            "1.json: error: result 'alpha/v2_fast@1048576', quantity 'time': has a \"min\" that is "
            "not a number (null)"},
        BadInput{"RecordMinWithoutMax",
                 [](const FixtureBook& b) { b.replace(record, ", \"max\": 4.1e-4", ""); },
                 "quantity 'time': has a \"min\" without a \"max\""},
        BadInput{"CeilingUnitNotAString",
                 [](const FixtureBook& b) {
                   b.replace("book/measurements/testgpu/machine.json", "\"unit\": \"B/s\"",
                             "\"unit\": [\"B/s\"]");
                 },
                 "machine.json: error: ceiling 'copy_bandwidth': has a \"unit\" that is not a "
                 "string ([\"B/s\"])"},
        BadInput{"RecordNegativeMedian",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"median\": 4.0e-4, \"min\": 3.9e-4",
                             "\"median\": -4.0e-4, \"min\": -5e-4");
                 },
                 "1.json: error: result 'alpha/v2_fast@1048576', quantity 'time': has a negative "
                 "median (-0.0004)"},
        BadInput{"RecordMedianOutsideItsRange",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"median\": 1.0e-3,", "\"median\": 2.0e-3,");
                 },
                 "1.json: error: result 'alpha/v1_naive@1048576', quantity 'time': has its median "
                 "0.002 outside its range [0.00099, 0.00102]"},
        BadInput{"RecordBareNumber",
                 [](const FixtureBook& b) {
                   b.replace(record,
                             "{\"median\": 4.0e-4, \"min\": 3.9e-4, \"max\": 4.1e-4, \"n\": 10, "
                             "\"unit\": \"s\"}",
                             "4.0e-4");
                 },
                 "1.json: error: result 'alpha/v2_fast@1048576', quantity 'time': is a bare number "
                 "(0.0004): a quantity names its unit"},
        BadInput{"RecordInLatinOne",
                 [](const FixtureBook& b) {
                   b.replace(record, "\"title\": \"Alpha\"", "\"title\": \"Alph\xE9\"");
                 },
                 "book/measurements/testgpu/1.json: error: is not a valid measurement record"},
        // A chapter in Latin-1 (this aborted the weaver, or reached Pandoc): an error at its line.
        BadInput{"TitleInLatinOne",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "title: \"Alpha\"", "title: \"Alph\xE9\"");
                 },
                 "chapters/1-alpha.md:3: error: the byte 0xE9 at column 13 is not UTF-8: save the "
                 "file as UTF-8"},
        BadInput{"ProseInLatinOne",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "An opening paragraph", "An op\xE9ning paragraph");
                 },
                 "chapters/1-alpha.md:13: error: the byte 0xE9 at column 6 is not UTF-8"},
        BadInput{"TruncatedSequence",
                 [](const FixtureBook& b) {
                   b.replace(alpha, "An opening paragraph", "An opening\xE2\x80 paragraph");
                 },
                 "chapters/1-alpha.md:13: error: the byte 0xE2 at column 11 is not UTF-8"},
        BadInput{"ChapterListInLatinOne",
                 [](const FixtureBook& b) {
                   b.write("book/chapters.txt",
                           b.read("book/chapters.txt") + "chapters/3-\xE9t\xE9.md\n");
                 },
                 "book/chapters.txt:5: error: the byte 0xE9 at column 12 is not UTF-8"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

using testing::contains;

TEST(BadInput, AWholeFileInLatinOneIsAFewErrorsNotOneALine) {
  FixtureBook book;
  std::string text = book.read("chapters/2-beta.md");
  for (int i = 0; i < 20; ++i) text += "\nCaf\xE9 cr\xE8me.\n";
  book.write("chapters/2-beta.md", text);
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  int said = 0;
  for (const auto& e : run.diagnostics.errors()) said += contains(e.message, "not UTF-8");
  EXPECT_EQ(said, 6) << run.printed;  // five lines, then how many more
  EXPECT_TRUE(contains(run.printed, "15 more line(s) from here on are not UTF-8 either"))
      << run.printed;
}

// A byte-order mark before the front matter is no part of the chapter: the same book is woven.
TEST(BadInput, AByteOrderMarkIsIgnored) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto before = book.outputs();
  book.write(alpha, "\xEF\xBB\xBF" + book.read(alpha));
  auto run = book.weave();
  EXPECT_EQ(run.status, 0) << run.printed;
  EXPECT_EQ(book.outputs(), before);
}

// A record without a sources_sha256 cannot be tied to its code: stale (a warning; an error if
// strict).
TEST(BadInput, RecordWithoutSourcesHashIsStale) {
  for (const std::string hash : {"", "absent"}) {
    FixtureBook book;
    const std::string from =
        "\"sources_sha256\": "
        "\"526d774aa24abdcf84515441a63d37fdaac45d56ae368a00adc7464ba93fb2bf\", ";
    book.replace(record, from, hash == "absent" ? "" : "\"sources_sha256\": \"\", ");
    const std::string said =
        "chapter 1 are stale: book/measurements/testgpu/1.json has no \"sources_sha256\"";
    auto run = book.weave();
    EXPECT_EQ(run.status, 0) << run.printed;
    EXPECT_TRUE(contains(run.printed, "chapters/1-alpha.md:1: warning: the numbers of " + said))
        << run.printed;
    EXPECT_TRUE(contains(book.read("build/book/woven/1-alpha.md"), ".stale"));
    auto before = book.outputs();
    run = book.weave(true);
    EXPECT_EQ(run.status, 2);
    EXPECT_TRUE(contains(run.printed, "chapters/1-alpha.md:1: error: the numbers of " + said))
        << run.printed;
    EXPECT_EQ(book.outputs(), before);
  }
}

TEST(BadInput, MistypedMeasurementsFolderIsAnError) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto before = book.outputs();
  auto run = book.weave_with([](Options& o) {
    o.measurements = "book/measurments";
    o.measurements_named = true;
  });
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(contains(run.printed,
                       "book/measurments: error: is not a folder of measurement records: check the "
                       "--measurements path"))
      << run.printed;
  EXPECT_EQ(book.outputs(), before);
  // tools.md W37: the one error, not one 'not yet measured' for each chapter after it
  for (bool strict : {false, true}) {
    run = book.weave_with([&](Options& o) {
      o.measurements = "book/measurments";
      o.measurements_named = true;
      o.strict = strict;
    });
    EXPECT_EQ(run.diagnostics.errors().size(), 1u) << run.printed;
    EXPECT_TRUE(run.diagnostics.warnings().empty()) << run.printed;
  }
}

// A record with a wrong quantity is refused whole: its errors, not one more for each value it held.
TEST(BadInput, AWrongQuantityRefusesItsRecordWithoutFollowOnErrors) {
  for (bool strict : {false, true}) {
    FixtureBook book;
    book.replace(record, "\"n\": 10, \"unit\": \"s\"}", "\"n\": 10, \"unit\": 5}");
    auto run = book.weave(strict);
    EXPECT_EQ(run.status, 2);
    ASSERT_FALSE(run.diagnostics.errors().empty());
    for (const auto& e : run.diagnostics.errors())
      if (!contains(e.message, "claim is broken")) EXPECT_EQ(e.file, record) << run.printed;
    EXPECT_TRUE(book.outputs().empty());
  }
}

// A corrupt machine.json is one error, named as corrupt: not "missing", and no error per value it
// held.
TEST(BadInput, CorruptMachineJsonIsOneError) {
  FixtureBook book;
  ASSERT_EQ(book.weave().status, 0);
  auto before = book.outputs();
  const std::string machine = "book/measurements/testgpu/machine.json";
  book.write(machine, book.read(machine).substr(0, 300));
  for (bool strict : {false, true}) {
    auto run = book.weave(strict);
    EXPECT_EQ(run.status, 2);
    if (!strict) EXPECT_EQ(run.diagnostics.errors().size(), 1u) << run.printed;
    EXPECT_FALSE(contains(run.printed, "not yet measured")) << run.printed;
    EXPECT_TRUE(contains(run.printed, machine + ": error: is not a valid measurement record"))
        << run.printed;
    EXPECT_FALSE(contains(run.printed, "is missing")) << run.printed;
    EXPECT_FALSE(contains(run.printed, "has no machine.json")) << run.printed;
    EXPECT_EQ(book.outputs(), before);
  }
}

// Every file under the fixture's root but build/, path -> content: what a weave must not touch.
std::map<std::string, std::string> inputs_of(const FixtureBook& book) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(book.root());
       it != fs::recursive_directory_iterator(); ++it) {
    const std::string path = fs::relative(it->path(), book.root()).generic_string();
    if (path == "build") it.disable_recursion_pending();
    if (path != "build" && it->is_regular_file()) files[path] = book.read(path);
  }
  return files;
}

// tools.md WV01-WV03 (issue 35 goal 3): an --out that holds the chapters, the book's metadata or
// records, or lies inside the records or src/, is refused before anything is written; a link to
// such a folder is refused as the folder itself.
TEST(BadInput, AnOutFolderOverTheInputsIsRefused) {
  FixtureBook book;
  fs::create_directory_symlink(book.root() / "chapters", book.root() / "link-to-chapters");
  const auto before = inputs_of(book);
  const std::pair<const char*, const char*> cases[] = {
      {"chapters", "holds the chapter chapters/"},
      {"book", "holds the measurement records book/measurements"},
      {"book/measurements/testgpu", "lies inside the measurement records book/measurements"},
      {"book/measurements", "holds the measurement records"},
      {".", "holds the measurement records"},
      {"src/alpha", "lies inside the tangled code src"},
      {"link-to-chapters", "holds the chapter chapters/"},
      {"link-to-chapters/../book", "holds"}};
  for (const auto& [out, said] : cases) {
    auto run = book.weave_with([&](Options& o) { o.out = out; });
    EXPECT_EQ(run.status, 2) << out;
    EXPECT_TRUE(contains(run.printed, std::string("--out ") + out + ": error: " + said))
        << out << ": " << run.printed;
    EXPECT_EQ(inputs_of(book), before) << out;
  }
  // the same folder given absolute, through the link: refused
  auto run = book.weave_with([&](Options& o) { o.out = book.root() / "link-to-chapters"; });
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(inputs_of(book), before);
  // a folder of its own beside them weaves
  EXPECT_EQ(book.weave_with([](Options& o) { o.out = "woven"; }).status, 0);
  EXPECT_EQ(book.weave_with([](Options& o) { o.out = "book/woven"; }).status, 0);
}

}  // namespace
}  // namespace weave
