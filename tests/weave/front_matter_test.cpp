// The front matter subset: scalars, flow lists, kernels as flow maps or block maps, comments,
// and the lines that errors name.
#include <gtest/gtest.h>

#include "front_matter.h"

namespace weave {
namespace {

FrontMatter read(const std::vector<std::string>& lines, Diagnostics& d) {
  return read_front_matter(lines, "c.md", d);
}

TEST(FrontMatter, ReadsTheFieldsTheWeaverUses) {
  Diagnostics d;
  FrontMatter fm =
      read({"---", "id: \"3.1\"  # the id", "title: 'A reduction: in three levels'", "src: reduce",
            "symbols: [B_copy, N_SM]",
            "kernels:", "  - {name: \"reduce/v1@2^28\", flops: 268435456, bytes: \"4 * 2^28\"}",
            "  - name: reduce/v2@2^28", "    flops: 1", "---", "# Title"},
           d);
  EXPECT_FALSE(d.has_errors()) << d.errors().front().message;
  EXPECT_TRUE(fm.present);
  EXPECT_EQ(fm.id, "3.1");
  EXPECT_EQ(fm.title, "A reduction: in three levels");
  EXPECT_EQ(fm.src, "reduce");
  ASSERT_EQ(fm.symbols.size(), 2u);
  EXPECT_EQ(fm.symbols[1].name, "N_SM");
  EXPECT_EQ(fm.symbols[1].line, 5);
  ASSERT_EQ(fm.kernels.size(), 2u);
  EXPECT_EQ(fm.kernels[0].name, "reduce/v1@2^28");
  EXPECT_EQ(fm.kernels[0].bytes, "4 * 2^28");
  EXPECT_EQ(fm.kernels[0].line, 7);
  EXPECT_EQ(fm.kernels[1].name, "reduce/v2@2^28");
  EXPECT_EQ(fm.kernels[1].flops, "1");
  EXPECT_EQ(fm.body_line, 11);
}

TEST(FrontMatter, AChapterWithoutFrontMatter) {
  Diagnostics d;
  FrontMatter fm = read({"# Just a title"}, d);
  EXPECT_FALSE(fm.present);
  EXPECT_EQ(fm.body_line, 1);
}

TEST(FrontMatter, ErrorsNameTheLine) {
  // yaml-cpp stops at the first syntax error; a list left open is named where it opened.
  Diagnostics d;
  read({"---", "id: \"1\"", "symbols: [B_copy, N_SM", "kernels:", "  - {flops: 1}", "---"}, d);
  ASSERT_EQ(d.errors().size(), 1u);
  EXPECT_EQ(d.errors()[0].line, 3);
  EXPECT_NE(d.errors()[0].message.find("not closed"), std::string::npos);
  Diagnostics kernels;
  read({"---", "id: \"1\"", "symbols: [B_copy, N_SM]", "kernels:", "  - {flops: 1}", "---"},
       kernels);
  ASSERT_EQ(kernels.errors().size(), 1u);
  EXPECT_EQ(kernels.errors()[0].line, 5);
  EXPECT_NE(kernels.errors()[0].message.find("needs a name"), std::string::npos);
}

TEST(FrontMatter, UnclosedFrontMatter) {
  Diagnostics d;
  read({"---", "id: \"1\""}, d);
  ASSERT_TRUE(d.has_errors());
  EXPECT_EQ(d.errors()[0].line, 1);
}

}  // namespace
}  // namespace weave
