// tools.md P4: after a first error whose cause is plain, the weaver says nothing that follows
// from it: no "no chapter has that id" for every record when the chapter list is missing, no
// "unknown symbol" for every symbol when symbols.json is, no "holds no records" and "not yet
// measured" when no GPU folder could be chosen.
#include <gtest/gtest.h>

#include "fixture.h"

namespace weave {
namespace {

using testing::FixtureBook;

// The run's errors and warnings, one a line, for a failure message.
std::string said(const FixtureBook::Run& run) { return run.printed.substr(0, 3000); }

TEST(RootCause, AMissingChapterListIsOneError) {
  FixtureBook book;
  book.remove("book/chapters.txt");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.diagnostics.errors().size(), 1u) << said(run);
  EXPECT_NE(run.printed.find("book/chapters.txt: error:"), std::string::npos) << said(run);
}

TEST(RootCause, AMissingSymbolTableIsOneError) {
  FixtureBook book;
  book.remove("book/symbols.json");
  auto run = book.weave();
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.diagnostics.errors().size(), 1u) << said(run);
  EXPECT_NE(run.printed.find("book/symbols.json: error: is missing"), std::string::npos)
      << said(run);
}

TEST(RootCause, SeveralGpusWithoutAChoiceIsOneErrorAndNoWarning) {
  FixtureBook book;
  std::string machine = book.read("book/measurements/testgpu/machine.json");
  for (int i = 0; i < 2; ++i) machine.replace(machine.find("Test GPU"), 8, "Other GPU");
  book.write("book/measurements/othergpu/machine.json", machine);
  auto run = book.weave_with([](Options& o) { o.reference = ""; });
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.diagnostics.errors().size(), 1u) << said(run);
  EXPECT_NE(run.printed.find("holds the records of several GPUs"), std::string::npos) << said(run);
  EXPECT_EQ(run.printed.find("warning"), std::string::npos) << said(run);
}

// P9: the same error at the same line is said once (a YAML alias used nine times gave nine).
TEST(RootCause, TheSameErrorAtOneLineIsSaidOnce) {
  Diagnostics d;
  d.error("c.md", 3, "bad");
  d.error("c.md", 3, "bad");
  d.error("c.md", 4, "bad");
  d.warning("c.md", 3, "bad");
  d.warning("c.md", 3, "bad");
  EXPECT_EQ(d.errors().size(), 2u);
  EXPECT_EQ(d.warnings().size(), 1u);
  FixtureBook book;
  book.write("chapters/1-alpha.md", book.read("chapters/1-alpha.md") +
                                        "\nTwice [nope@1 : time]{.m}, [nope@1 : time]{.m}.\n");
  auto run = book.weave();
  EXPECT_EQ(run.diagnostics.errors().size(), 1u) << said(run);
}

}  // namespace
}  // namespace weave
