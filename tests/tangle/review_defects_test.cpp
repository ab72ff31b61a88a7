// The review's remaining tangler defects (../shared/reviews/tools.md P7, P8, P9, Z3, Z4), each
// from its reproduction.
#include <gtest/gtest.h>

#include <filesystem>

#include "book_list.h"
#include "diagnostic.h"
#include "tangler.h"
#include "test_book.h"

namespace tangle {
namespace {

namespace fs = std::filesystem;
using testing::RunResult;
using testing::TestBook;

std::vector<std::string> errors_of(const std::string& text) {
  Tangling tangling = tangle_texts({{"chapters/a.md", text}});
  std::vector<std::string> lines;
  for (const Diagnostic& diagnostic : tangling.diagnostics) lines.push_back(format(diagnostic));
  return lines;
}

// Z3 (row T32): CMake builds src/<one name>/ and measure.py runs build/<src>_test.
TEST(ReviewDefects, SrcIsOneFolderName) {
  for (const char* src : {"a/b", "\"a b\"", "-a"}) {
    auto errors = errors_of(std::string("---\nsrc: ") + src + "\n---\n");
    ASSERT_EQ(errors.size(), 1u) << src;
    EXPECT_NE(errors[0].find("chapters/a.md:2: src: "), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("is not one folder name under src/"), std::string::npos) << errors[0];
  }
  EXPECT_TRUE(errors_of("---\nsrc: reduce_2-b\n---\n").empty());
}

// Z4 (row M24): '#' starts a comment anywhere on a line, as the weaver and measure.py read it.
TEST(ReviewDefects, ChapterListCommentsStartAtAnyHash) {
  auto listed = parse_book_list("# the book\nchapters/a.md  # the first\n\nchapters/x#1.md\n");
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].path, "chapters/a.md");
  EXPECT_EQ(listed[0].line, 2);
  EXPECT_EQ(listed[1].path, "chapters/x");
  EXPECT_EQ(listed[1].line, 4);
}

// P8 (row T23): a cycle through many chunks is named by its ends, not one line of all of them.
TEST(ReviewDefects, ALongCycleIsShownByItsEnds) {
  std::string text = "```{.cpp file=src/a.cpp}\n<<c0>>\n```\n";
  for (int i = 0; i < 1000; ++i)
    text +=
        "```{.cpp #c" + std::to_string(i) + "}\n<<c" + std::to_string((i + 1) % 1000) + ">>\n```\n";
  auto errors = errors_of(text);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("cycle (c0 -> c1 -> c2 -> c3 -> c4 -> ... 991 more chunks ... -> c996 "
                           "-> c997 -> c998 -> c999 -> c0)"),
            std::string::npos)
      << errors[0];
  EXPECT_LT(errors[0].size(), 300u);
}

// P9 (row T26): the same error at the same line is said once.
TEST(ReviewDefects, RepeatedErrorsAreSaidOnce) {
  Diagnostics d = {{"c.md", 3, "bad"},
                   {"c.md", 3, "bad"},
                   {"c.md", 4, "bad"},
                   {"c.md", 3, "worse"},
                   {"c.md", 3, "bad"}};
  drop_repeats(d);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].line, 3);
  EXPECT_EQ(d[1].line, 4);
  EXPECT_EQ(d[2].message, "worse");
}

// P7 (row T35): a manifest line whose path is a link out of src/ refused every run without
// saying that the line comes from the manifest, or what to do.
TEST(ReviewDefects, AManifestLineThroughALinkIsNamed) {
  TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "```{.cpp file=src/a/x.cpp}\nint x;\n```\n");
  ASSERT_EQ(book.tangle().status, 0);
  fs::create_directories(book.root() / "outside");
  book.write("outside/link.txt", "victim\n");
  fs::create_directory_symlink(book.root() / "outside", book.root() / "src/b");
  book.write("src/.tangle-manifest",
             book.read("src/.tangle-manifest") + "chapters/a.md\tsrc/b/link.txt\n");
  RunResult run = book.tangle();
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("src/.tangle-manifest lists src/b/link.txt, which no chapter tangles any "
                         "more"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("Remove that line from src/.tangle-manifest"), std::string::npos)
      << run.err;
  EXPECT_EQ(book.read("outside/link.txt"), "victim\n");
}

}  // namespace
}  // namespace tangle
