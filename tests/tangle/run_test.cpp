// The executable itself: its options and exit statuses, as the Makefile sees them.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>

#include "options.h"
#include "test_book.h"

namespace tangle {
namespace {

struct Shell {
  int status;
  std::string output;  // stdout and stderr together
};

Shell shell(const std::string& command) {
  Shell result{-1, ""};
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  while (size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    result.output.append(buffer.data(), n);
  int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string tangle_in(const testing::TestBook& book, const std::string& arguments) {
  return "cd '" + book.root().string() + "' && '" TANGLE_EXECUTABLE "' " + arguments;
}

TEST(Executable, HelpAndBadOptions) {
  Shell help = shell("'" TANGLE_EXECUTABLE "' --help");
  EXPECT_EQ(help.status, 0);
  for (const char* option : {"--root", "--check", "--quiet", "CHAPTER.md", "exit status"})
    EXPECT_NE(help.output.find(option), std::string::npos) << option << " in " << help.output;
  Shell unknown = shell("'" TANGLE_EXECUTABLE "' --frobnicate");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("unknown option --frobnicate"), std::string::npos)
      << unknown.output;
  EXPECT_EQ(shell("'" TANGLE_EXECUTABLE "' --root").status, 2);
}

TEST(Executable, ExitStatusesFromTheBooksRoot) {
  testing::TestBook book;
  book.list({"chapters/a.md"});
  book.write("chapters/a.md", "```{.cpp file=src/a.cpp}\nint a;\n```\n");
  EXPECT_EQ(shell(tangle_in(book, "--check")).status, 1);  // src/a.cpp missing
  Shell write = shell(tangle_in(book, ""));
  EXPECT_EQ(write.status, 0) << write.output;
  EXPECT_NE(write.output.find("wrote src/a.cpp"), std::string::npos) << write.output;
  EXPECT_EQ(shell(tangle_in(book, "--check")).status, 0);
  EXPECT_EQ(shell(tangle_in(book, "--quiet")).output, "");
  book.write("chapters/a.md", "```{.cpp file=src/a.cpp}\n<<gone>>\n```\n");
  Shell error = shell(tangle_in(book, ""));
  EXPECT_EQ(error.status, 2);
  EXPECT_TRUE(error.output.starts_with("chapters/a.md:2: <<gone>> names no chunk")) << error.output;
}

TEST(Executable, RootOptionAndChapterArguments) {
  testing::TestBook book;
  book.write("chapters/x.md", "```{.cpp file=src/x.cpp}\nint x;\n```\n");
  Shell run = shell("'" TANGLE_EXECUTABLE "' --root '" + book.root().string() + "' chapters/x.md");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(book.exists("src/x.cpp"));
}

TEST(Options, Parse) {
  OptionsParse parse = parse_options({"--root=/b", "--check", "chapters/a.md", "--", "--odd.md"});
  ASSERT_EQ(parse.error, "");
  EXPECT_EQ(parse.options.root, "/b");
  EXPECT_TRUE(parse.options.check);
  EXPECT_EQ(parse.options.chapters, (std::vector<std::string>{"chapters/a.md", "--odd.md"}));
  EXPECT_NE(parse_options({"--root="}).error, "");
  EXPECT_NE(parse_options({"--root"}).error.find("--root needs a folder"), std::string::npos);
  EXPECT_TRUE(parse_options({"-h"}).options.help);
  EXPECT_TRUE(parse_options({"-q", "a.md"}).options.quiet);
  EXPECT_EQ(parse_options({"a.md", "--chek"}).error, "unknown option --chek: see tangle --help");
}

}  // namespace
}  // namespace tangle
