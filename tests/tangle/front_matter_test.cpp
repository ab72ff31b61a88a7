// Front matter: skipped with its line numbers kept; only `src:` is read.
#include <gtest/gtest.h>

#include "front_matter.h"

namespace tangle {
namespace {

TEST(FrontMatter, BlanksItsLinesAndReadsSrc) {
  std::string text = "---\nid: \"3.1\"\nsrc: reduce\n---\n# Title\n";
  FrontMatter front = strip_front_matter(text);
  EXPECT_TRUE(front.present);
  EXPECT_EQ(front.src_folder, "reduce");
  EXPECT_EQ(front.src_line, 3);
  EXPECT_EQ(text, "\n\n\n\n# Title\n");
}

TEST(FrontMatter, ClosesWithDotsAndReadsQuotedOrCommentedValues) {
  std::string text = "---\nsrc: 'matmul'   # folder\n...\nbody";
  EXPECT_EQ(strip_front_matter(text).src_folder, "matmul");
  EXPECT_EQ(text, "\n\n\nbody");
  std::string commented = "---\nsrc: fusion # the folder\n---";
  EXPECT_EQ(strip_front_matter(commented).src_folder, "fusion");
  EXPECT_EQ(commented, "\n\n");
}

TEST(FrontMatter, AbsentOrUnclosedIsNotFrontMatter) {
  std::string plain = "# Title\n---\nsrc: x\n---\n";
  EXPECT_FALSE(strip_front_matter(plain).present);
  EXPECT_EQ(plain, "# Title\n---\nsrc: x\n---\n");
  std::string unclosed = "---\nsrc: x\n";
  EXPECT_FALSE(strip_front_matter(unclosed).present);
  EXPECT_EQ(unclosed, "---\nsrc: x\n");
  std::string indented = " ---\nsrc: x\n---\n";
  EXPECT_FALSE(strip_front_matter(indented).present);
}

TEST(FrontMatter, OnlyTopLevelSrcKeyCounts) {
  std::string text = "---\nkernels:\n  src: nested\nsources: x\n---\n";
  FrontMatter front = strip_front_matter(text);
  EXPECT_TRUE(front.present);
  EXPECT_EQ(front.src_line, 0);
  EXPECT_EQ(front.src_folder, "");
}

TEST(FrontMatter, ErrorsAreTheSharedReadersAtTheirLine) {
  std::string twice = "---\nsrc: a\nsrc: b\n---\n";
  FrontMatter front = strip_front_matter(twice);
  ASSERT_EQ(front.errors.size(), 1u);
  EXPECT_EQ(front.errors[0].first, 3);
  std::string unclosed = "---\nsrc: x\n";
  ASSERT_EQ(strip_front_matter(unclosed).errors.size(), 1u);
  EXPECT_EQ(strip_front_matter(unclosed).errors[0].first, 1);
}

}  // namespace
}  // namespace tangle
