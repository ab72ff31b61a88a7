// The shared front-matter reader (tangle/front_matter/, on yaml-cpp): the rules book/SYNTAX.md
// states and measure.py applies, each error at its chapter line.
#include <gtest/gtest.h>

#include "front_matter/front_matter.h"

namespace front_matter {
namespace {

std::string first_error(const FrontMatter& fm) {
  return fm.errors.empty() ? "" : std::to_string(fm.errors[0].line) + ": " + fm.errors[0].message;
}

TEST(YamlFrontMatter, ScalarsAreKeptAsWritten) {
  FrontMatter fm = read("---\nid: 3.10\ntitle: yes\nsrc: ~\n---\n# T\n");
  EXPECT_TRUE(fm.errors.empty()) << first_error(fm);
  EXPECT_EQ(fm.id, "3.10");    // not the number 3.1
  EXPECT_EQ(fm.title, "yes");  // not a boolean
  EXPECT_EQ(fm.src, "");       // ~ is absent
  EXPECT_EQ(fm.src_line, 4);
  EXPECT_EQ(fm.body_line, 6);
}

TEST(YamlFrontMatter, BlockListsAndCrlf) {
  FrontMatter fm = read(
      "---\r\nid: \"A\"\r\nsymbols:\r\n  - B_copy\r\n  - N_SM\r\nprofile: [\"a/b@1\"]\r\n"
      "kernels:\r\n  - name: a/b@1\r\n    bytes: \"4 * 2^28\"\r\n...\r\n");
  EXPECT_TRUE(fm.errors.empty()) << first_error(fm);
  ASSERT_EQ(fm.symbols.size(), 2u);
  EXPECT_EQ(fm.symbols[1].name, "N_SM");
  EXPECT_EQ(fm.symbols[1].line, 5);
  ASSERT_EQ(fm.profile.size(), 1u);
  EXPECT_EQ(fm.profile[0].line, 6);
  ASSERT_EQ(fm.kernels.size(), 1u);
  EXPECT_EQ(fm.kernels[0].bytes, "4 * 2^28");
  EXPECT_EQ(fm.kernels[0].line, 8);
  EXPECT_EQ(fm.closing_line, 10);
}

// tools.md T26's note: a value given by an alias (*h) was reported at its anchor's line (&h, line
// 3 here), not at the key that used it: each error is at its own key's line.
TEST(YamlFrontMatter, AnAliasIsReportedAtTheKeyThatUsesIt) {
  FrontMatter fm =
      read("---\na: &a [x, y]\nh: &h [*a, *a]\n\nsrc: *h\nid: *h\nsymbols: [*h]\n---\n");
  ASSERT_EQ(fm.errors.size(), 3u) << first_error(fm);
  EXPECT_EQ(first_error(fm), "5: front matter: 'src' must be a plain value, like src: \"text\"");
  EXPECT_EQ(fm.errors[1].line, 6);
  EXPECT_EQ(fm.errors[2].line, 7);
  EXPECT_EQ(fm.errors[2].message, "front matter: each of 'symbols' must be a name, like B_copy");
}

TEST(YamlFrontMatter, AKeyWrittenTwiceIsAnError) {
  FrontMatter fm = read("---\nid: A\nsrc: a\nsrc: b\n---\n");
  ASSERT_EQ(fm.errors.size(), 1u);
  EXPECT_EQ(fm.errors[0].line, 4);
  EXPECT_NE(fm.errors[0].message.find("written twice (first on line 3)"), std::string::npos);
}

TEST(YamlFrontMatter, WrongShapesNameTheirLine) {
  EXPECT_EQ(first_error(read("---\nid: A\nsrc: [a, b]\n---\n")).substr(0, 3), "3: ");
  EXPECT_NE(first_error(read("---\nid: A\nsrc: [a, b]\n---\n")).find("plain value"),
            std::string::npos);
  EXPECT_EQ(first_error(read("---\nid: A\nkernels: {name: x}\n---\n")).substr(0, 3), "3: ");
  EXPECT_EQ(first_error(read("---\nid: A\nsymbols: [a, [b]]\n---\n")).substr(0, 3), "3: ");
  EXPECT_EQ(first_error(read("---\n- a\n- b\n---\n")).substr(0, 3), "2: ");
  EXPECT_EQ(first_error(read("---\nid: A\nnonsense\n---\n")).substr(0, 2), "3:");
  EXPECT_EQ(first_error(read("---\nid: \"A\ntitle: x\n---\n")).substr(0, 2), "2:");
}

// tools.md T27, T28: yaml-cpp's depth guard was reported as "this is not YAML (bad file)"
TEST(YamlFrontMatter, DeepNestingIsNamedAsSuch) {
  std::string flow =
      "---\nid: A\nx: " + std::string(100000, '[') + std::string(100000, ']') + "\n---\n";
  std::string error = first_error(read(flow));
  EXPECT_EQ(error.substr(0, 3), "3: ") << error;
  EXPECT_NE(error.find("nested too deeply"), std::string::npos) << error;
  EXPECT_EQ(error.find("bad file"), std::string::npos) << error;
  std::string block = "---\nid: A\n";
  for (int depth = 0; depth < 5000; ++depth) block += std::string(depth, ' ') + "k:\n";
  block += "---\n";
  error = first_error(read(block));
  EXPECT_NE(error.find("nested too deeply"), std::string::npos) << error;
}

TEST(YamlFrontMatter, FencesAtColumnOne) {
  EXPECT_FALSE(read(" ---\nid: A\n---\n").present);
  EXPECT_TRUE(read(" ---\nid: A\n---\n").errors.empty());
  FrontMatter unclosed = read("---\nid: A\n ---\n");
  EXPECT_FALSE(unclosed.present);
  ASSERT_EQ(unclosed.errors.size(), 1u);
  EXPECT_EQ(unclosed.errors[0].line, 1);
  FrontMatter spaced = read("---  \nid: A\n---\t\n");
  EXPECT_TRUE(spaced.present);
  EXPECT_EQ(spaced.id, "A");
  FrontMatter empty = read("---\n# nothing\n---\n");
  EXPECT_TRUE(empty.present);
  EXPECT_TRUE(empty.errors.empty());
}

TEST(YamlFrontMatter, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "---\nid: " + std::string(20000, '[') + "\n---\n";
  FrontMatter fm = read(deep);
  EXPECT_FALSE(fm.errors.empty());
}

}  // namespace
}  // namespace front_matter
