// The tangler and the disk: files written only when they change, the manifest, subset runs,
// --check, and nothing outside src/.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "output_tree.h"
#include "test_book.h"

namespace tangle {
namespace {

namespace fs = std::filesystem;
using testing::RunResult;
using testing::TestBook;

const std::string kA =
    "---\nsrc: a\n---\n```{.cpp file=src/a/one.cpp}\nint one;\n```\n```{.cpp "
    "file=src/a/two.cpp}\nint two;\n```\n";
const std::string kB = "---\nsrc: b\n---\n```{.cpp file=src/b/b.cpp}\nint b;\n```\n";

// A book of two chapters, tangled once.
struct TwoChapters : ::testing::Test {
  void SetUp() override {
    book.list({"chapters/a.md", "chapters/b.md"});
    book.write("chapters/a.md", kA);
    book.write("chapters/b.md", kB);
    RunResult first = book.tangle();
    ASSERT_EQ(first.status, 0) << first.err;
  }
  fs::file_time_type age(const std::string& relative) {
    return fs::last_write_time(book.root() / relative);
  }
  void make_old(const std::string& relative) {
    fs::last_write_time(book.root() / relative,
                        fs::file_time_type::clock::now() - std::chrono::hours(1));
  }
  TestBook book;
};

TEST_F(TwoChapters, WritesTheFilesAndTheManifest) {
  EXPECT_TRUE(book.read("src/a/one.cpp").ends_with("int one;\n"));
  EXPECT_TRUE(book.read("src/b/b.cpp").ends_with("int b;\n"));
  EXPECT_EQ(
      book.read("src/.tangle-manifest"),
      "chapters/a.md\tsrc/a/one.cpp\nchapters/a.md\tsrc/a/two.cpp\nchapters/b.md\tsrc/b/b.cpp\n");
}

TEST_F(TwoChapters, RewritesOnlyFilesWhoseContentChanged) {
  for (const char* path : {"src/a/one.cpp", "src/a/two.cpp", "src/b/b.cpp", "src/.tangle-manifest"})
    make_old(path);
  auto one = age("src/a/one.cpp"), two = age("src/a/two.cpp"), b = age("src/b/b.cpp"),
       manifest = age("src/.tangle-manifest");
  book.write("chapters/a.md",
             "---\nsrc: a\n---\n```{.cpp file=src/a/one.cpp}\nint one;\n```\n```{.cpp "
             "file=src/a/two.cpp}\nint two_changed;\n```\n");
  RunResult second = book.tangle();
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(age("src/a/one.cpp"), one);
  EXPECT_NE(age("src/a/two.cpp"), two);
  EXPECT_EQ(age("src/b/b.cpp"), b);
  EXPECT_EQ(age("src/.tangle-manifest"), manifest);
  EXPECT_NE(second.out.find("1 written"), std::string::npos) << second.out;
}

TEST_F(TwoChapters, LeavesNoTemporaryFilesBehind) {
  for (const auto& entry : fs::recursive_directory_iterator(book.root() / "src"))
    EXPECT_EQ(entry.path().filename().string().find(".tangle-tmp-"), std::string::npos)
        << entry.path();
}

TEST_F(TwoChapters, RemovesFilesNoChapterProducesAnyMore) {
  book.write("chapters/a.md", "---\nsrc: a\n---\n```{.cpp file=src/a/one.cpp}\nint one;\n```\n");
  book.write("src/a/hand-made.txt", "not the tangler's\n");
  RunResult second = book.tangle();
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_FALSE(book.exists("src/a/two.cpp"));
  EXPECT_TRUE(book.exists("src/a/hand-made.txt")) << "removed a file the manifest does not list";
  EXPECT_EQ(book.read("src/.tangle-manifest"),
            "chapters/a.md\tsrc/a/one.cpp\nchapters/b.md\tsrc/b/b.cpp\n");
}

TEST_F(TwoChapters, RemovesFoldersLeftEmpty) {
  book.write("chapters/b.md", "---\nsrc: b\n---\n");
  ASSERT_EQ(book.tangle().status, 0);
  EXPECT_FALSE(book.exists("src/b"));
  EXPECT_TRUE(book.exists("src/a/one.cpp"));
}

TEST_F(TwoChapters, ChapterDroppedFromTheBookLosesItsFiles) {
  book.list({"chapters/a.md"});
  ASSERT_EQ(book.tangle().status, 0);
  EXPECT_FALSE(book.exists("src/b/b.cpp"));
}

TEST_F(TwoChapters, SubsetRunTouchesOnlyItsChapters) {
  book.write("chapters/b.md", "---\nsrc: b\n---\n```{.cpp file=src/b/new.cpp}\nint b;\n```\n");
  book.write("chapters/a.md", "---\nsrc: a\n---\n");  // would remove a's files in a full run
  RunResult subset = book.tangle({"chapters/b.md"});
  ASSERT_EQ(subset.status, 0) << subset.err;
  EXPECT_TRUE(book.exists("src/a/one.cpp")) << "a subset run removed another chapter's file";
  EXPECT_TRUE(book.exists("src/a/two.cpp"));
  EXPECT_FALSE(book.exists("src/b/b.cpp"));
  EXPECT_TRUE(book.exists("src/b/new.cpp"));
  EXPECT_EQ(
      book.read("src/.tangle-manifest"),
      "chapters/a.md\tsrc/a/one.cpp\nchapters/a.md\tsrc/a/two.cpp\nchapters/b.md\tsrc/b/new.cpp\n");
}

TEST_F(TwoChapters, SubsetRunAcceptsAbsoluteChapterPaths) {
  book.write("chapters/b.md", "---\nsrc: b\n---\n```{.cpp file=src/b/b.cpp}\nint changed;\n```\n");
  RunResult subset = book.tangle({(book.root() / "chapters/b.md").string()});
  ASSERT_EQ(subset.status, 0) << subset.err;
  EXPECT_NE(book.read("src/b/b.cpp").find("#line 5 \"chapters/b.md\"\nint changed;"),
            std::string::npos);
}

TEST_F(TwoChapters, SubsetRunRefusesAFileSharedWithAnotherChapter) {
  book.write("chapters/c.md", "```{.cpp file=src/a/one.cpp}\nint c;\n```\n");
  book.list({"chapters/a.md", "chapters/b.md", "chapters/c.md"});
  ASSERT_EQ(book.tangle().status, 0);
  std::string before = book.read("src/a/one.cpp");
  RunResult subset = book.tangle({"chapters/c.md"});
  EXPECT_EQ(subset.status, 2);
  EXPECT_TRUE(
      subset.err.starts_with("chapters/c.md:1: src/a/one.cpp is also tangled from chapters/a.md"))
      << subset.err;
  EXPECT_EQ(book.read("src/a/one.cpp"), before);
}

TEST_F(TwoChapters, CheckIsQuietWhenInStep) {
  RunResult check = book.tangle({"--check"});
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_EQ(check.err, "");
}

TEST_F(TwoChapters, CheckNamesEveryFileOutOfStepAndWritesNothing) {
  book.write("src/a/one.cpp", "edited by hand\n");  // differs
  book.remove("src/b/b.cpp");                       // missing
  book.write("chapters/a.md",
             "---\nsrc: a\n---\n```{.cpp file=src/a/one.cpp}\nint one;\n```\n");  // two.cpp no
                                                                                  // longer produced
  make_old("src/a/one.cpp");
  auto one = age("src/a/one.cpp");
  RunResult check = book.tangle({"--check"});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.err.find("src/a/one.cpp: differs"), std::string::npos) << check.err;
  EXPECT_NE(check.err.find("src/b/b.cpp: missing"), std::string::npos) << check.err;
  EXPECT_NE(check.err.find("src/a/two.cpp: no chapter tangles it"), std::string::npos) << check.err;
  EXPECT_NE(check.err.find("src/.tangle-manifest"), std::string::npos) << check.err;
  EXPECT_EQ(book.read("src/a/one.cpp"), "edited by hand\n");
  EXPECT_EQ(age("src/a/one.cpp"), one);
  EXPECT_FALSE(book.exists("src/b/b.cpp"));
  EXPECT_TRUE(book.exists("src/a/two.cpp"));
  ASSERT_EQ(book.tangle().status, 0);
  EXPECT_EQ(book.tangle({"--check"}).status, 0);
}

TEST_F(TwoChapters, CheckOfASubsetLooksOnlyAtItsChapters) {
  book.write("src/a/one.cpp", "edited by hand\n");
  EXPECT_EQ(book.tangle({"--check", "chapters/b.md"}).status, 0);
  EXPECT_EQ(book.tangle({"--check", "chapters/a.md"}).status, 1);
}

TEST_F(TwoChapters, CheckWithErrorsExitsTwo) {
  book.write("chapters/b.md", "```{.cpp file=/abs.cpp}\n```\n");
  EXPECT_EQ(book.tangle({"--check"}).status, 2);
}

TEST(OutsideSrc, ManifestEntriesOutsideSrcAreNeverRemoved) {
  TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "text\n");
  book.write("keep.txt", "mine\n");
  book.write(
      "src/.tangle-manifest",
      "chapters/a.md\tkeep.txt\nchapters/a.md\tsrc/../keep.txt\nchapters/a.md\t/etc/hostname\n");
  ASSERT_EQ(book.tangle().status, 0);
  EXPECT_TRUE(book.exists("keep.txt"));
}

TEST(OutsideSrc, SymbolicLinkOutOfSrcIsRefused) {
  TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "```{.cpp file=src/link/a.cpp}\nint a;\n```\n");
  fs::create_directories(book.root() / "outside");
  fs::create_directories(book.root() / "src");
  fs::create_directory_symlink(book.root() / "outside", book.root() / "src/link");
  RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("outside"), std::string::npos) << result.err;
  EXPECT_FALSE(book.exists("outside/a.cpp"));
}

// A byte-order mark before the front matter is no part of the chapter: the front matter still
// counts.
TEST(ByteOrderMark, IsIgnoredAndTheFrontMatterCounts) {
  TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "\xEF\xBB\xBF" + kA);
  RunResult good = book.tangle();
  EXPECT_EQ(good.status, 0) << good.err;
  EXPECT_TRUE(book.exists("src/a/one.cpp"));
  book.write("chapters/a.md",
             "\xEF\xBB\xBF---\nsrc: a\n---\n```{.cpp file=src/b/x.cpp}\nint x;\n```\n");
  RunResult bad = book.tangle();
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("outside this chapter's folder src/a/"), std::string::npos) << bad.err;
}

// The link is found before anything is written: not src/a/ok.cpp first, then the refusal.
TEST(OutsideSrc, SymbolicLinkRefusesTheRunBeforeAnyFileIsWritten) {
  TestBook book;
  book.list({"chapters/a.md"});
  book.write(
      "chapters/a.md",
      "```{.cpp file=src/a/ok.cpp}\nint ok;\n```\n\n```{.cpp file=src/b/a.cpp}\nint a;\n```\n");
  fs::create_directories(book.root() / "outside");
  fs::create_directories(book.root() / "src");
  fs::create_directory_symlink(book.root() / "outside", book.root() / "src/b");
  RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("src/b/a.cpp would be written through src/b, a symbolic link"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(book.exists("src/a/ok.cpp"));
  EXPECT_FALSE(book.exists("outside/a.cpp"));
  EXPECT_FALSE(book.exists("src/.tangle-manifest"));
}

// tools.md Z5 (row T1): src/ itself a link to a folder elsewhere was followed without a word.
TEST(OutsideSrc, SrcThatIsASymbolicLinkIsRefused) {
  TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "```{.cpp file=src/a/x.cpp}\nint x;\n```\n");
  fs::create_directories(book.root() / "outside");
  fs::create_directory_symlink(book.root() / "outside", book.root() / "src");
  RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("src is a symbolic link"), std::string::npos) << result.err;
  EXPECT_FALSE(book.exists("outside/a/x.cpp"));
  EXPECT_FALSE(book.exists("outside/.tangle-manifest"));
}

// tools.md TG01: the paths were checked, then used by name, so src/a swapped for a link to a
// folder elsewhere between the check and the write sent x.cpp there (after 6 to 92 runs of a
// swapping loop). The swap is made here between the run's check of every path and the write.
TEST(OutsideSrc, AFolderSwappedForALinkAfterTheCheckIsNotWrittenThrough) {
  TestBook book;
  book.write("src/a/old.cpp", "old\n");
  fs::create_directories(book.root() / "outside");
  OutputTree tree(book.root());
  tree.check("src/a/x.cpp");
  auto swap = [&] {
    fs::rename(book.root() / "src/a", book.root() / "aside");
    fs::create_directory_symlink(book.root() / "outside", book.root() / "src/a");
  };
  swap();
  try {
    if (auto staged = tree.stage("src/a/x.cpp", "int x;\n")) tree.commit(*staged);
    ADD_FAILURE() << "written through the link";
  } catch (const std::exception& failure) {
    EXPECT_NE(std::string(failure.what())
                  .find("src/a/x.cpp would be written through src/a, a symbolic link (to "),
              std::string::npos)
        << failure.what();
  }
  EXPECT_TRUE(fs::is_empty(book.root() / "outside"));
  // swapped after the temporary was written, before its rename: the rename is refused
  fs::remove(book.root() / "src/a");
  fs::rename(book.root() / "aside", book.root() / "src/a");
  std::optional<OutputTree::Staged> staged = tree.stage("src/a/x.cpp", "int x;\n");
  ASSERT_TRUE(staged);
  swap();
  try {
    tree.commit(*staged);
    ADD_FAILURE() << "renamed through the link";
  } catch (const std::exception& failure) {
    EXPECT_NE(std::string(failure.what()).find("cannot replace src/a/x.cpp: "), std::string::npos)
        << failure.what();
  }
  EXPECT_TRUE(fs::is_empty(book.root() / "outside"));
  EXPECT_FALSE(fs::exists(book.root() / "aside/x.cpp"));
  for (const auto& entry : fs::directory_iterator(book.root() / "aside"))  // its temporary too
    EXPECT_EQ(entry.path().filename(), "old.cpp");
}

// Rows T3 and T4: a file of src/ that is a link, to a file outside or to nothing, is refused by
// name and neither followed nor replaced (T4's dangling link was replaced by a file before).
TEST(OutsideSrc, AFileThatIsALinkIsRefused) {
  TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "```{.cpp file=src/a/x.cpp}\nint x;\n```\n");
  book.write("outside/victim", "victim\n");
  fs::create_directories(book.root() / "src/a");
  for (const char* target : {"outside/victim", "outside/nothing"}) {
    fs::create_symlink(book.root() / target, book.root() / "src/a/x.cpp");
    RunResult result = book.tangle();
    EXPECT_EQ(result.status, 2);
    EXPECT_NE(result.err.find("tangle: src/a/x.cpp is a symbolic link (to "), std::string::npos)
        << result.err;
    EXPECT_EQ(book.read("outside/victim"), "victim\n");
    EXPECT_FALSE(book.exists("outside/nothing"));
    EXPECT_TRUE(fs::is_symlink(book.root() / "src/a/x.cpp"));
    fs::remove(book.root() / "src/a/x.cpp");
  }
}

// tools.md TG06: a 300-byte file name was reported as "resolves outside ./src (through a symbolic
// link?)" (the cause was ENAMETOOLONG), and src/a/ was made although the message ended "nothing
// was written". The name is refused at its fence line, with the limit, and nothing is made.
TEST(OutsideSrc, AFileNameTooLongIsRefusedAtItsLineWithTheLimit) {
  TestBook book;
  book.list({"chapters/c.md"});
  book.write("chapters/c.md",
             "# c\n\n```{.cuda file=src/a/" + std::string(297, 'n') + ".cu}\nint x;\n```\n");
  RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("chapters/c.md:3: file=src/a/" + std::string(34, 'n') +
                            "... has a file name of 300 bytes: a file's name is at most 235 bytes"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(book.exists("src"));
  // one that fits is written; a failure after folders were made leaves none of them behind
  book.write("chapters/c.md", "```{.cuda file=src/a/b/" + std::string(232, 'n') +
                                  ".cu}\nint x;\n```\n```{.cuda file=src/c/d.cu}\nint d;\n```\n");
  book.write("src/c/d.cu/in-the-way", "");
  result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("cannot replace src/c/d.cu: it is a folder"), std::string::npos)
      << result.err;
  EXPECT_FALSE(book.exists("src/a"));
  book.remove("src/c/d.cu/in-the-way");
  book.remove("src/c/d.cu");
  result = book.tangle();
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(book.exists("src/a/b/" + std::string(232, 'n') + ".cu"));
}

// tools.md L2 (rows T6, T8): a file where a folder is needed, or a folder where a file is, failed
// after earlier files were written, and those never entered the manifest. Now nothing is written,
// and the error names the chapter line.
TEST(PartialOutput, AFileWhereAFolderShouldBeWritesNothing) {
  TestBook book;
  book.list({"chapters/c.md"});
  book.write("chapters/c.md",
             "# x\n\n```{.cuda file=src/a/x.cu}\nint x;\n```\n```{.cuda file=src/b/y.cu}\nint "
             "y;\n```\n");
  book.write("src/b", "file\n");
  RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("chapters/c.md:6: cannot create the folder of src/b/y.cu: src/b is a "
                            "file, not a folder"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("nothing was written"), std::string::npos) << result.err;
  EXPECT_FALSE(book.exists("src/a/x.cu"));
  EXPECT_FALSE(book.exists("src/.tangle-manifest"));
  for (const auto& entry : fs::recursive_directory_iterator(book.root() / "src"))
    EXPECT_EQ(entry.path().filename().string().find(".tangle-tmp-"), std::string::npos)
        << entry.path();
  // T7: with the blocker gone, both are written and owned, so a later drop removes them.
  book.remove("src/b");
  ASSERT_EQ(book.tangle().status, 0);
  EXPECT_NE(book.read("src/.tangle-manifest").find("src/a/x.cu"), std::string::npos);
}

TEST(PartialOutput, AFolderWhereAFileShouldBeWritesNothing) {
  TestBook book;
  book.list({"chapters/c.md"});
  book.write("chapters/c.md",
             "```{.cuda file=src/a/x.cu}\nint x;\n```\n```{.cuda file=src/a/z.cu}\nint z;\n```\n");
  fs::create_directories(book.root() / "src/a/z.cu");
  RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("chapters/c.md:4: cannot replace src/a/z.cu: it is a folder"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(book.exists("src/a/x.cu"));
}

// tools.md O6 (rows T14, T15): one chapter listed under two spellings was tangled twice.
TEST(Listing, OneChapterUnderTwoSpellingsIsListedTwice) {
  TestBook book;
  book.write("chapters/c.md", "```{.cpp file=src/a/x.cpp}\nint x;\n```\n");
  book.list({"chapters/c.md", "chapters/./c.md"});
  RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("chapters/./c.md is listed twice (as chapters/c.md): list it once"),
            std::string::npos)
      << result.err;
  fs::create_symlink(book.root() / "chapters/c.md", book.root() / "chapters/alias.md");
  book.list({"chapters/c.md", "chapters/alias.md"});
  result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("chapters/alias.md is listed twice (as chapters/c.md)"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(book.exists("src/a/x.cpp"));
}

}  // namespace
}  // namespace tangle
