// A roofline reference (figure_refs.h): the figure's path, 'not yet measured' without ceilings,
// or an error naming what is wrong.
#include "figure_refs.h"

#include <gtest/gtest.h>

#include "spans.h"

namespace weave {
namespace {

struct FigureRefs : ::testing::Test {
  FigureRefs() {
    book.store = &store;
    chapter.fm.id = "3.1";
    chapter.fm.kernels.push_back({"reduce/v1@2^20", "", "", "", 8});
    chapter.fm.kernels.push_back({"reduce/v2@2^20", "", "", "bytes", 9});
    book.chapters_by_id["3.1"] = &chapter;
    book.chapters_by_id["A"] = &appendix;
  }
  std::string path(const std::string& target) {
    return figure_path(target, {file, 40}, book, diagnostics, figures, unmeasured);
  }
  std::string said() const {
    return diagnostics.errors().empty() ? "" : diagnostics.errors().front().message;
  }
  void measure_ceilings() {
    store.machine = Machine{};
    store.machine->ceilings["copy_bandwidth"] = Quantity{};
  }
  const std::string file = "chapters/3.1-reduction.md";
  MeasurementStore store;
  BookContext book;
  Chapter chapter, appendix;
  Diagnostics diagnostics;
  std::set<std::string> figures;
  std::vector<int> unmeasured;
};

TEST_F(FigureRefs, AMeasuredFigureIsItsSvg) {
  measure_ceilings();
  EXPECT_EQ(path("3.1"), "figures/roofline-3.1.svg");
  EXPECT_EQ(path("3.1/bytes"), "figures/roofline-3.1-bytes.svg");
  EXPECT_EQ(path("book"), "figures/roofline-book.svg");
  EXPECT_EQ(figures, (std::set<std::string>{"3.1", "3.1-bytes", "book"}));
  EXPECT_FALSE(diagnostics.has_errors());
}

TEST_F(FigureRefs, WithoutCeilingsItIsNotYetMeasured) {
  EXPECT_EQ(path("3.1"), kUnmeasuredFigure);
  EXPECT_EQ(unmeasured, std::vector<int>{40});
  EXPECT_TRUE(figures.empty());
}

TEST_F(FigureRefs, WrongTargetsAreNamed) {
  measure_ceilings();
  EXPECT_EQ(path("9.9"), "");
  EXPECT_EQ(said(), "roofline:9.9 names no chapter: use a chapter's id or roofline:book");
  for (auto [target, words] : {std::pair{"A", "chapter A lists no kernels"},
                               {"3.1/flops", "lists no kernel with figure: flops"},
                               {"book/x", "the book's figure has no named parts"}}) {
    diagnostics = {};
    EXPECT_EQ(path(target), "") << target;
    EXPECT_NE(said().find(words), std::string::npos) << said();
    EXPECT_EQ(diagnostics.errors().front().line, 40);
  }
}

}  // namespace
}  // namespace weave
