// The chapter's report (chapter_report.h): warnings while the book is written, errors when strict.
#include "chapter_report.h"

#include <gtest/gtest.h>

namespace weave {
namespace {

struct Report : ::testing::Test {
  Report() { book.store = &store; }
  Diagnostics run(std::vector<int> unmeasured = {}, std::vector<int> not_run = {}) {
    Diagnostics d;
    report_chapter({"c.md", fm, record, out, unmeasured, not_run}, book, d);
    return d;
  }
  ClaimResult claim(ClaimResult::Status status, int line) {
    ClaimResult c;
    c.status = status;
    c.line = line;
    c.expr = "a < b";
    return c;
  }
  MeasurementStore store;
  BookContext book;
  FrontMatter fm;
  Record own;
  const Record* record = &own;
  ChapterOutput out;
};

TEST_F(Report, UnmeasuredValuesAreOneWarningOrAnErrorEach) {
  out.claims.push_back(claim(ClaimResult::Status::unmeasured, 30));
  Diagnostics d = run({12, 20});
  ASSERT_EQ(d.warnings().size(), 1u);
  EXPECT_EQ(d.warnings()[0].line, 12);
  EXPECT_EQ(d.warnings()[0].message.substr(0, 9), "3 value(s");
  book.strict = true;
  EXPECT_EQ(run({12, 20}).errors().size(), 3u);
  store.unreadable.push_back("book/measurements/x/1.json");  // said already: not counted again
  EXPECT_FALSE(run({12, 20}).has_errors());
}

TEST_F(Report, ABrokenClaimIsAWarningOrAStrictError) {
  out.claims.push_back(claim(ClaimResult::Status::broken, 40));
  Diagnostics d = run();
  ASSERT_EQ(d.warnings().size(), 1u);
  EXPECT_EQ(d.warnings()[0].message, "claim is broken on this GPU: a < b; revisit the sentence");
  book.strict = true;
  ASSERT_EQ(run().errors().size(), 1u);
  EXPECT_EQ(run().errors()[0].line, 40);
}

TEST_F(Report, NotRunIsAStrictErrorOnTheReferenceGpuOnly) {
  book.strict = true;
  EXPECT_EQ(run({}, {7}).errors().size(), 1u);
  book.woven_is_reference = false;
  Diagnostics d = run({}, {7});
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.warnings().size(), 1u);
}

TEST_F(Report, StaleNumbersNameTheMeasureToRun) {
  fm.id = "3.1";
  own.file = "book/measurements/x/3.1.json";
  own.sources_sha256 = "ab";
  out.stale = true;
  Diagnostics d = run();
  ASSERT_EQ(d.warnings().size(), 1u);
  EXPECT_NE(d.warnings()[0].message.find("its code changed after book/measurements/x/3.1.json "
                                         "was measured; run make measure CHAPTER=3.1"),
            std::string::npos)
      << d.warnings()[0].message;
}

}  // namespace
}  // namespace weave
