// Warnings (the tangle goes on, file:line named) and the book's root (an error): issue 12.
#include <gtest/gtest.h>

#include "languages.h"
#include "markdown_reader.h"
#include "tangler.h"
#include "test_book.h"

namespace tangle {
namespace {

std::vector<std::string> warnings_of(const std::string& text) {
  std::vector<std::string> out;
  for (const Diagnostic& warning : read_chapter("chapters/a.md", text).warnings)
    out.push_back(format(warning));
  return out;
}

TEST(Warnings, AFenceIndentedFourSpacesThatLooksLikeATangleBlock) {
  auto warnings = warnings_of("Text.\n\n    ```{.cpp file=src/a.cpp}\n    int a;\n    ```\n");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(warnings[0].starts_with("chapters/a.md:3: this fence is indented four spaces"))
      << warnings[0];
  EXPECT_EQ(warnings_of("Text.\n\n    ```{.cpp #chunk}\n    int a;\n    ```\n").size(), 1u);
  // Indented code that only shows a fence, or an untagged one, is an illustration: no word.
  EXPECT_TRUE(warnings_of("Text.\n\n    ```cpp\n    int a;\n    ```\n").empty());
  EXPECT_TRUE(warnings_of("Text.\n\n    int a;\n").empty());
  EXPECT_TRUE(warnings_of("Text.\n\n    ```\n").empty());  // found by the fuzzer: a bare fence
  EXPECT_TRUE(warnings_of("   ```{.cpp file=src/a.cpp}\n   int a;\n   ```\n").empty());
}

// A chunk name defined in a second chapter continues the first chapter's chunk (Entangled's
// rule): legal, so a warning at the later chapter's block, once per chapter, naming the first.
TEST(Warnings, AChunkNameDefinedInTwoChapters) {
  Tangling tangling =
      tangle_texts({{"chapters/a.md",
                     "---\nsrc: a\n---\n```{.cpp file=src/a/a.cpp}\n<<helpers>>\n```\n"
                     "```{.cpp #helpers}\nint a;\n```\n"},
                    {"chapters/b.md",
                     "---\nsrc: b\n---\n```{.cpp file=src/b/b.cpp}\nint b;\n```\n"
                     "\n```{.cpp #helpers}\nint b2;\n```\n```{.cpp #helpers}\nint b3;\n```\n"}});
  EXPECT_TRUE(tangling.diagnostics.empty());
  ASSERT_EQ(tangling.warnings.size(), 1u);
  std::string warning = format(tangling.warnings[0]);
  EXPECT_TRUE(
      warning.starts_with("chapters/b.md:8: chunk #helpers is first defined in "
                          "chapters/a.md:7, so this block continues"))
      << warning;
  EXPECT_NE(warning.find("#b-helpers"), std::string::npos) << warning;
  // A src: that is no folder name (here "s\nx", a YAML value folded over a blank line) is not
  // suggested as a prefix: the warning stays one line.
  Tangling bad_src = tangle_texts(
      {{"chapters/a.md", "```{.cpp #helpers}\nint a;\n```\n"},
       {"chapters/b.md", "---\nsrc: s\n\n x\n...\n```{.cpp #helpers}\nint b;\n```\n"}});
  ASSERT_EQ(bad_src.warnings.size(), 1u);
  warning = format(bad_src.warnings[0]);
  EXPECT_NE(warning.find("(prefix it with this chapter's folder: #name-helpers)"),
            std::string::npos)
      << warning;
  // Blocks of one name within one chapter continue each other, as meant: no word.
  EXPECT_TRUE(tangle_texts({{"chapters/a.md",
                             "```{.cpp file=src/a.cpp}\n<<h>>\n```\n"
                             "```{.cpp #h}\nint a;\n```\n```{.cpp #h}\nint b;\n```\n"}})
                  .warnings.empty());
}

TEST(Warnings, ALanguageTheFilesExtensionContradicts) {
  auto warnings = warnings_of("```{.cuda file=src/a.cpp}\nint a;\n```\n");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "chapters/a.md:1: the block is .cuda but its file src/a.cpp is cpp (.cpp): tag the "
            "block .cpp, or rename the file");
  EXPECT_EQ(warnings_of("```{.cpp file=src/a/k.cu}\nint a;\n```\n").size(), 1u);
  EXPECT_EQ(warnings_of("```{.cmake file=src/a/x.py}\nx\n```\n").size(), 1u);
  for (const char* fine :
       {"```{.cuda file=src/a/k.cu}\n```\n", "```{.cuda file=src/a/k.cuh}\n```\n",
        "```{.cpp file=src/a/k.cuh}\n```\n", "```{.cmake file=src/a/CMakeLists.txt}\n```\n",
        "```{.sh file=src/a/run.sh}\n```\n", "```{.cpp file=src/a/k.h}\n```\n",
        "```{.cuda file=src/a/notes.txt}\n```\n", "```{.cuda #chunk}\n```\n"})
    EXPECT_TRUE(warnings_of(fine).empty()) << fine;
  EXPECT_EQ(language_mismatch("python", "src/a/x.py"), "");
  EXPECT_EQ(language_mismatch("cuda", "src/a/x.c"), "c (.c)");
}

TEST(Warnings, ArePrintedAndTheTangleGoesOn) {
  testing::TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "```{.cuda file=src/a.cpp}\nint a;\n```\n");
  testing::RunResult run = book.tangle();
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("chapters/a.md:1: warning: the block is .cuda"), std::string::npos)
      << run.err;
  EXPECT_TRUE(book.exists("src/a.cpp"));
  EXPECT_EQ(book.tangle({"--quiet"}).err, "");
}

TEST(Root, AChapterListedOutsideTheRootIsRefused) {
  testing::TestBook book;
  book.write("chapters/a.md", "```{.cpp file=src/a.cpp}\nint a;\n```\n");
  book.write("../outside-the-book.md", "```{.cpp file=src/b.cpp}\nint b;\n```\n");
  book.list({"chapters/a.md", "../outside-the-book.md", (book.root() / "chapters/a.md").string()});
  testing::RunResult run = book.tangle();
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("book/chapters.txt:3: ../outside-the-book.md is outside the book's root"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("book/chapters.txt:4: /"), std::string::npos) << run.err;
  EXPECT_FALSE(book.exists("src/a.cpp"));
  book.remove("../outside-the-book.md");
}

TEST(Root, AChapterLinkedOutsideTheRootIsRefused) {
  testing::TestBook book;
  book.write("../linked-outside.md", "```{.cpp file=src/b.cpp}\nint b;\n```\n");
  std::filesystem::create_directories(book.root() / "chapters");
  std::filesystem::create_symlink(book.root() / "../linked-outside.md",
                                  book.root() / "chapters/l.md");
  book.list({"chapters/l.md"});
  testing::RunResult run = book.tangle();
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("chapters/l.md is outside the book's root"), std::string::npos) << run.err;
  book.remove("../linked-outside.md");
}

}  // namespace
}  // namespace tangle
