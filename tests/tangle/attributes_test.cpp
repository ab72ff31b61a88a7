// The fence's attribute list and the <<reference>> line.
#include <gtest/gtest.h>

#include "attributes.h"
#include "reference.h"

namespace tangle {
namespace {

TEST(Attributes, FileAndLanguage) {
  AttributeParse parse = parse_attributes("{.cuda file=src/bench/timer.cuh}");
  ASSERT_EQ(parse.error, "");
  EXPECT_TRUE(parse.attributes.braced);
  EXPECT_EQ(parse.attributes.language, "cuda");
  EXPECT_EQ(parse.attributes.file, "src/bench/timer.cuh");
  EXPECT_FALSE(parse.attributes.id);
}

TEST(Attributes, NamedChunkWithSpacesAround) {
  AttributeParse parse = parse_attributes("  { .cpp   #warp-sum  }  ");
  ASSERT_EQ(parse.error, "");
  EXPECT_EQ(parse.attributes.language, "cpp");
  EXPECT_EQ(parse.attributes.id, "warp-sum");
}

TEST(Attributes, QuotedValues) {
  EXPECT_EQ(parse_attributes("{.cu file=\"src/a b.cu\"}").attributes.file, "src/a b.cu");
  EXPECT_EQ(parse_attributes("{.cu file='src/a}b.cu'}").attributes.file, "src/a}b.cu");
  EXPECT_EQ(parse_attributes("{.cu file=\"src/a\\\"b.cu\"}").attributes.file, "src/a\"b.cu");
}

TEST(Attributes, PlainFencesAreIllustrations) {
  AttributeParse parse = parse_attributes("cuda");
  EXPECT_EQ(parse.error, "");
  EXPECT_FALSE(parse.attributes.braced);
  EXPECT_FALSE(parse.attributes.file);
  EXPECT_EQ(parse_attributes("").attributes.language, "");
}

TEST(Attributes, Errors) {
  EXPECT_NE(parse_attributes("{.cuda file=x").error, "");
  EXPECT_NE(parse_attributes("{.cuda file=\"x}").error, "");
  EXPECT_NE(parse_attributes("{.cuda file=x file=y}").error, "");
  EXPECT_NE(parse_attributes("{.cuda #a #b}").error, "");
  EXPECT_NE(parse_attributes("{.cuda #a<b}").error, "");
  EXPECT_NE(parse_attributes("{.cuda file=a\"b}").error, "");
  EXPECT_NE(parse_attributes("{.cuda file=\"a\"b}").error, "");
  EXPECT_NE(parse_attributes("{.cuda file=`a`}").error, "");
  EXPECT_NE(parse_attributes("{.cuda word}").error, "");
}

TEST(Reference, OnItsOwnLine) {
  auto reference = parse_reference("\t  <<warp-sum>>  ");
  ASSERT_TRUE(reference);
  EXPECT_EQ(reference->indent, "\t  ");
  EXPECT_EQ(reference->id, "warp-sum");
}

TEST(Reference, NotAReference) {
  EXPECT_FALSE(parse_reference("x = <<a>>"));
  EXPECT_FALSE(parse_reference("<<a>>;"));
  EXPECT_FALSE(parse_reference("<<>>"));
  EXPECT_FALSE(parse_reference("<<a b>>"));
  EXPECT_FALSE(parse_reference("std::cout << x >> y"));
  EXPECT_FALSE(parse_reference(""));
}

}  // namespace
}  // namespace tangle
