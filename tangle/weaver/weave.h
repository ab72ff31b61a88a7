// The weaver's entry point: reads the book's chapter list, every chapter and the measurement
// records, weaves each chapter and writes the woven book, or, on any error, writes nothing.
//
// Why a pass before Pandoc and not a Pandoc filter: the errors must name chapter.md:LINE, and a
// JSON filter sees Pandoc's AST, which keeps no source positions for inline spans; cmark's tree
// (blocks.h), over the chapter's own lines, keeps them. It also needs no Haskell or Lua toolchain,
// only this C++.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "diagnostics.h"

namespace weave {

struct Options {
  std::filesystem::path root = ".";  // the repository; relative paths below are under it
  std::filesystem::path book = "book/chapters.txt";  // the chapters in order
  std::filesystem::path measurements =
      "book/measurements";  // one GPU's folder, or the folder of GPUs
  std::filesystem::path symbols = "book/symbols.json";
  std::filesystem::path out = "build/book/woven";
  std::string gpu;  // the GPU's slug, when the folder holds several
  // The book's reference GPU (book/reference-gpu, through the Makefile): woven when the folder
  // holds several and --gpu names none; shown beside any other GPU that is woven.
  std::string reference;
  bool strict = false;        // stale chapters, broken claims and unmeasured values are errors
  bool measured_now = false;  // the records were written by this very build
  bool measurements_named = false;  // --measurements was given: the folder must then exist
};

// Everything the weaver would write (file name -> content), or nothing when there were errors.
std::optional<std::map<std::string, std::string>> weave_book(const Options& options,
                                                             Diagnostics& diagnostics);

// weave_book, then write the files all or nothing. Returns the exit status: 0, or 2 on errors.
int run(const Options& options, Diagnostics& diagnostics);

}  // namespace weave
