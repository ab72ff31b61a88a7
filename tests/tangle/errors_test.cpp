// Every error the tangler reports: one line "chapter:LINE: what and what to do", all of them at
// once, exit status 2, and nothing written.
#include <gtest/gtest.h>

#include "tangler.h"
#include "test_book.h"

namespace tangle {
namespace {

// The formatted diagnostics of tangling `texts` in memory.
std::vector<std::string> errors_of(const std::vector<ChapterText>& texts) {
  Tangling tangling = tangle_texts(texts);
  std::vector<std::string> lines;
  for (const Diagnostic& diagnostic : tangling.diagnostics) lines.push_back(format(diagnostic));
  if (!lines.empty()) EXPECT_TRUE(tangling.files.empty()) << "files are produced despite errors";
  return lines;
}
std::vector<std::string> errors_of(const std::string& text) {
  return errors_of({{"chapters/a.md", text}});
}

// Expects exactly one error, at `where` ("chapters/a.md:3"), whose message contains `words`.
void expect_one_error(const std::vector<std::string>& errors, const std::string& where,
                      const std::string& words) {
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_TRUE(errors[0].starts_with(where + ": ")) << errors[0];
  EXPECT_NE(errors[0].find(words), std::string::npos) << errors[0];
}

TEST(Errors, MissingReferenceNamesTheReferenceLine) {
  expect_one_error(errors_of("# t\n\n```{.cpp file=src/a.cpp}\nint x;\n<<nowhere>>\n```\n"),
                   "chapters/a.md:5", "<<nowhere>> names no chunk");
}

TEST(Errors, CycleNamesTheChain) {
  std::string text =
      "```{.cpp file=src/a.cpp}\n<<one>>\n```\n"
      "```{.cpp #one}\n<<two>>\n```\n"
      "```{.cpp #two}\n<<three>>\n```\n"
      "```{.cpp #three}\n  <<one>>\n```\n";
  expect_one_error(errors_of(text), "chapters/a.md:11", "cycle (one -> two -> three -> one)");
}

TEST(Errors, ChunkThatIncludesItself) {
  std::string text = "```{.cpp file=src/a.cpp}\n<<self>>\n```\n```{.cpp #self}\n<<self>>\n```\n";
  expect_one_error(errors_of(text), "chapters/a.md:5", "cycle (self -> self)");
}

TEST(Errors, TwoChaptersGiveOneFileDifferentLanguages) {
  std::vector<std::string> errors =
      errors_of({{"chapters/a.md", "```{.cuda file=src/k.cu}\n```\n"},
                 {"chapters/b.md", "\n\n```{.cpp file=src/k.cu}\n```\n"}});
  expect_one_error(errors, "chapters/b.md:3", "as .cpp but as .cuda at chapters/a.md:1");
}

TEST(Errors, ChapterWritesOutsideItsSrcFolder) {
  std::vector<std::string> errors =
      errors_of({{"chapters/a.md", "---\nsrc: reduce\n---\n```{.cuda file=src/reduce/k.cu}\n```\n"},
                 {"chapters/b.md",
                  "---\ntitle: x\nsrc: \"matmul\" # its folder\n---\n\n```{.cuda "
                  "file=src/reduce/k.cu}\n```\n"}});
  expect_one_error(errors, "chapters/b.md:6", "outside this chapter's folder src/matmul/");
}

TEST(Errors, SrcFolderRuleHoldsWithinOneChapterToo) {
  expect_one_error(errors_of("---\nsrc: reduce\n---\n```{.cuda file=src/reducer/k.cu}\n```\n"),
                   "chapters/a.md:4", "outside this chapter's folder src/reduce/");
}

TEST(Errors, BadSrcFolderInFrontMatter) {
  expect_one_error(errors_of("---\nsrc: ../up\n---\n"), "chapters/a.md:2", "not one folder name");
}

TEST(Errors, AbsoluteFile) {
  expect_one_error(errors_of("```{.cpp file=/etc/a.cpp}\n```\n"), "chapters/a.md:1", "is absolute");
}

TEST(Errors, FileWithDotDot) {
  expect_one_error(errors_of("\n```{.cpp file=src/x/../../a.cpp}\n```\n"), "chapters/a.md:2",
                   "contains '..'");
}

TEST(Errors, FileOutsideSrc) {
  expect_one_error(errors_of("```{.cpp file=lib/a.cpp}\n```\n"), "chapters/a.md:1", "outside src/");
  expect_one_error(errors_of("```{.cpp file=srcs/a.cpp}\n```\n"), "chapters/a.md:1",
                   "outside src/");
}

TEST(Errors, EmptyFile) {
  expect_one_error(errors_of("```{.cpp file=}\n```\n"), "chapters/a.md:1", "file= is empty");
  expect_one_error(errors_of("```{.cpp file=\"\"}\n```\n"), "chapters/a.md:1", "file= is empty");
}

TEST(Errors, FileThatIsTheManifest) {
  expect_one_error(errors_of("```{.sh file=src/.tangle-manifest}\n```\n"), "chapters/a.md:1",
                   "manifest");
}

TEST(Errors, FileThatIsAlsoAFolder) {
  expect_one_error(errors_of("```{.sh file=src/a}\n```\n```{.sh file=src/a/b.sh}\n```\n"),
                   "chapters/a.md:3", "which another block writes as a file");
}

TEST(Errors, UnterminatedFenceAtEndOfChapter) {
  expect_one_error(errors_of("text\n\n```{.cpp file=src/a.cpp}\nint x;\n\n"), "chapters/a.md:3",
                   "never closed");
}

TEST(Errors, UnterminatedFenceOfAnIllustrationToo) {
  expect_one_error(errors_of("```cpp\nint x;\n"), "chapters/a.md:1", "never closed");
  expect_one_error(errors_of("~~~~\nint x;\n~~~\n"), "chapters/a.md:1", "~~~~");
}

TEST(Errors, UnterminatedFenceClosedOnlyByItsContainer) {
  expect_one_error(errors_of("> ```{.cpp file=src/a.cpp}\n> int x;\n\nafter\n"), "chapters/a.md:1",
                   "never closed");
}

TEST(Errors, FencesClosedInsideContainersAreFine) {
  std::string text =
      "> ```{.cpp file=src/a.cpp}\n> int x;\n> ```\n\n- item\n\n  ```{.cpp file=src/b.cpp}\n  int "
      "y;\n  ```\n";
  EXPECT_TRUE(errors_of(text).empty()) << ::testing::PrintToString(errors_of(text));
}

TEST(Errors, MalformedAttributes) {
  expect_one_error(errors_of("```{.cpp file=src/a.cpp\n```\n"), "chapters/a.md:1",
                   "never closed: end it with '}'");
  expect_one_error(errors_of("```{.cpp bogus}\n```\n"), "chapters/a.md:1", "bad token 'bogus'");
  expect_one_error(errors_of("```{.cpp =x}\n```\n"), "chapters/a.md:1", "bad token '=x'");
  expect_one_error(errors_of("~~~{.cpp file=`src/a.cpp`}\n~~~\n"), "chapters/a.md:1",
                   "unknown quote");
  expect_one_error(errors_of("```{.cpp file=\xE2\x80\x9Csrc/a.cpp\xE2\x80\x9D}\n```\n"),
                   "chapters/a.md:1", "unknown quote");
  expect_one_error(errors_of("```{.cpp file=\"src/a.cpp}\n```\n"), "chapters/a.md:1",
                   "never closed");
  expect_one_error(errors_of("```{.cpp file=src/a.cpp} extra\n```\n"), "chapters/a.md:1",
                   "after the closing '}'");
  expect_one_error(errors_of("```{.cpp # }\n```\n"), "chapters/a.md:1", "no chunk name");
  expect_one_error(errors_of("```{. #x}\n```\n"), "chapters/a.md:1", "no language");
  expect_one_error(errors_of("```{#x}\n```\n"), "chapters/a.md:1", "needs a language");
  expect_one_error(errors_of("```cuda file=src/a.cu\n```\n"), "chapters/a.md:1",
                   "must be in braces");
}

TEST(Errors, UnusedChunkIsAnError) {
  expect_one_error(errors_of("\n```{.cpp #spare}\nint spare;\n```\n"), "chapters/a.md:2",
                   "chunk #spare is never used");
}

TEST(Errors, BlockWithBothFileAndId) {
  expect_one_error(errors_of("```{.cpp file=src/a.cpp #a}\n```\n"), "chapters/a.md:1",
                   "both file= and #a");
  // The error says what to write instead (book/SYNTAX.md: no block is both).
  std::string message = errors_of("```{.cpp file=src/a.cpp #a}\n```\n").at(0);
  EXPECT_NE(message.find("write ```{.cpp #a} for the chunk and a block ```{.cpp file=src/a.cpp} "
                         "holding the line <<a>>"),
            std::string::npos)
      << message;
}

TEST(Errors, ReferenceToAChunkOfAnotherLanguageIsFine) {
  std::string text =
      "```{.cpp file=src/a.cpp}\n<<numbers>>\n```\n```{.python #numbers}\nx = 1\n```\n";
  EXPECT_TRUE(errors_of(text).empty());
}

TEST(Errors, AllErrorsAreReportedInBookOrder) {
  std::vector<std::string> errors = errors_of(
      {{"chapters/a.md", "```{.cpp file=/abs}\n```\n```{.cpp file=src/a.cpp}\n<<gone>>\n```\n"},
       {"chapters/b.md", "```{.cpp #spare}\n```\n```{.cpp bad token}\n```\n"}});
  ASSERT_EQ(errors.size(), 4u) << ::testing::PrintToString(errors);
  EXPECT_TRUE(errors[0].starts_with("chapters/a.md:1: ")) << errors[0];
  EXPECT_TRUE(errors[1].starts_with("chapters/a.md:4: ")) << errors[1];
  EXPECT_TRUE(errors[2].starts_with("chapters/b.md:1: ")) << errors[2];
  EXPECT_TRUE(errors[3].starts_with("chapters/b.md:3: ")) << errors[3];
}

TEST(Errors, RunReportsEveryErrorExitsTwoAndWritesNothing) {
  testing::TestBook book;
  book.list({"chapters/a.md", "chapters/b.md"});
  book.write("chapters/a.md", "```{.cpp file=src/good.cpp}\nint good;\n```\n");
  book.write("chapters/b.md", "```{.cpp file=src/b.cpp}\n<<gone>>\n```\n```{.cpp #spare}\n```\n");
  testing::RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  std::vector<std::string> lines = testing::lines_of(result.err);
  ASSERT_EQ(lines.size(), 3u) << result.err;
  EXPECT_TRUE(lines[0].starts_with("chapters/b.md:2: ")) << lines[0];
  EXPECT_TRUE(lines[1].starts_with("chapters/b.md:4: ")) << lines[1];
  EXPECT_NE(lines[2].find("nothing was written"), std::string::npos);
  EXPECT_FALSE(book.exists("src")) << "a run with errors created src/";
}

TEST(Errors, MissingChapterNamesTheBookListLine) {
  testing::TestBook book;
  book.list({"chapters/absent.md"});
  testing::RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_TRUE(result.err.starts_with("book/chapters.txt:2: chapters/absent.md cannot be read"))
      << result.err;
}

TEST(Errors, MissingBookList) {
  testing::TestBook book;
  testing::RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_TRUE(result.err.starts_with("book/chapters.txt: cannot be read")) << result.err;
}

TEST(Errors, ChapterListedTwice) {
  testing::TestBook book;
  book.list({"chapters/a.md", "chapters/a.md"});
  book.write("chapters/a.md", "text\n");
  testing::RunResult result = book.tangle();
  EXPECT_EQ(result.status, 2);
  EXPECT_TRUE(result.err.starts_with("book/chapters.txt:3: chapters/a.md is listed twice"))
      << result.err;
}

// tools.md C5 (row T24): 60 chunks each including the next twice, over an empty last chunk, in a
// language without #line: 2^60 visits and no bytes, so the byte cap never tripped and the tangler
// ran for ever. The visit cap stops it at once, at the file's block.
TEST(Errors, ExponentialFanOutOfEmptyChunksStops) {
  std::string text = "```{.python file=src/a/x.py}\n<<c0>>\n```\n";
  for (int i = 0; i < 60; ++i)
    text += "```{.python #c" + std::to_string(i) + "}\n<<c" + std::to_string(i + 1) + ">>\n<<c" +
            std::to_string(i + 1) + ">>\n```\n";
  text += "```{.python #c60}\n```\n";
  expect_one_error(errors_of(text), "chapters/a.md:1", "references bring in more than");
}

// The visit cap is for the whole run: 60 files that each include a 16-level fan-out (65 536
// visits each) stop at the cap, once, not after 60 times its work.
TEST(Errors, ManyFilesOfOneFanOutShareTheVisits) {
  std::string text;
  for (int f = 0; f < 60; ++f)
    text += "```{.python file=src/a/x" + std::to_string(f) + ".py}\n<<c0>>\n```\n";
  for (int i = 0; i < 16; ++i)
    text += "```{.python #c" + std::to_string(i) + "}\n<<c" + std::to_string(i + 1) + ">>\n<<c" +
            std::to_string(i + 1) + ">>\n```\n";
  text += "```{.python #c16}\n```\n";
  std::vector<std::string> errors = errors_of(text);
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_NE(errors[0].find("references bring in more than"), std::string::npos) << errors[0];
}

// tools.md TG08: the visit cap counted every line of every file, so three blocks of 400 000 lines
// of plain code were refused as a fan-out, and the message gave the budget left (248574) as if it
// were the limit. Only what references bring in counts, and the message gives the limit itself.
TEST(Errors, PlainCodeIsNoFanOutAndTheMessageGivesTheLimit) {
  ExpandLimits limits;
  limits.max_visits = 1000;
  std::string lines;
  for (int i = 0; i < 3000; ++i) lines += "x = " + std::to_string(i) + "\n";
  std::string text;
  for (int f = 0; f < 3; ++f)
    text += "```{.python file=src/a/x" + std::to_string(f) + ".py}\n" + lines + "```\n";
  Tangling plain = tangle_texts({{"chapters/a.md", text}}, limits);
  ASSERT_TRUE(plain.diagnostics.empty()) << format(plain.diagnostics[0]);
  EXPECT_EQ(plain.files.size(), 3u);
  // a chunk included 2^11 times after them still stops, at the limit as given
  text += "```{.python file=src/a/y.py}\n<<c0>>\n```\n";
  for (int i = 0; i < 11; ++i)
    text += "```{.python #c" + std::to_string(i) + "}\n<<c" + std::to_string(i + 1) + ">>\n<<c" +
            std::to_string(i + 1) + ">>\n```\n";
  text += "```{.python #c11}\nx\n```\n";
  Tangling fan = tangle_texts({{"chapters/a.md", text}}, limits);
  ASSERT_EQ(fan.diagnostics.size(), 1u);
  EXPECT_NE(format(fan.diagnostics[0])
                .find("src/a/y.py: its references bring in more than 1000 lines and blocks of "
                      "chunks (the limit for all files of a run together"),
            std::string::npos)
      << format(fan.diagnostics[0]);
}

}  // namespace
}  // namespace tangle
