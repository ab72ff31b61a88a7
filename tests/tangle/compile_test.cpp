// The point of #line: a compiler error in tangled code names the chapter line the reader opens.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <regex>

#include "test_book.h"

namespace tangle {
namespace {

std::string compiler_output(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return output;
  std::array<char, 4096> buffer;
  while (size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    output.append(buffer.data(), n);
  ::pclose(pipe);
  return output;
}

TEST(Compile, ErrorsNameTheChapterLine) {
  testing::TestBook book;
  book.list({"chapters/9.9-broken.md"});
  book.write("chapters/9.9-broken.md",
             "---\n"                                   // 1
             "src: broken\n"                           // 2
             "---\n"                                   // 3
             "# A chapter with a mistake\n"            // 4
             "\n"                                      // 5
             "```{.cpp file=src/broken/broken.cpp}\n"  // 6
             "#include <cstdio>\n"                     // 7
             "int main() {\n"                          // 8
             "  <<body>>\n"                            // 9
             "  return not_declared_after;\n"          // 10: the second mistake
             "}\n"                                     // 11
             "```\n"                                   // 12
             "\n"                                      // 13
             "The body:\n"                             // 14
             "\n"                                      // 15
             "```{.cpp #body}\n"                       // 16
             "std::puts(\"fine\");\n"                  // 17
             "int x = undeclared_here;\n"              // 18: the first mistake
             "```\n");
  ASSERT_EQ(book.tangle().status, 0);
  std::string output =
      compiler_output("cd '" + book.root().string() +
                      "' && '" TANGLE_CXX_COMPILER "' -fsyntax-only -x c++ src/broken/broken.cpp");
  EXPECT_TRUE(std::regex_search(
      output, std::regex("chapters/9\\.9-broken\\.md:18:[0-9]+: error: .*undeclared_here")))
      << output;
  EXPECT_TRUE(std::regex_search(
      output, std::regex("chapters/9\\.9-broken\\.md:10:[0-9]+: error: .*not_declared_after")))
      << output;
}

}  // namespace
}  // namespace tangle
