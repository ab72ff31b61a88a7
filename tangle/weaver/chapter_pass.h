// One chapter, its lines in the roles cmark's tree gives them (blocks.h): front matter kept for
// Pandoc, code blocks copied untouched, the box placed after the first heading, claims checked,
// {.m} values and roofline references rewritten, every ::: div checked for its closing fence. The
// output is Pandoc Markdown for the renderer.
#pragma once
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "claims.h"
#include "front_matter.h"
#include "measurements.h"
#include "rooflines.h"
#include "staleness.h"
#include "symbols.h"
#include "variants.h"

namespace weave {

struct Chapter {
  std::string path;      // chapters/3.1-reduction.md, as listed in book/chapters.txt
  std::string basename;  // 3.1-reduction
  std::vector<std::string> lines;
  FrontMatter fm;
};

struct BookContext {
  std::filesystem::path root;  // the repository: chapters, src/ and its manifest
  const MeasurementStore* store = nullptr;
  const SymbolTable* symbols = nullptr;
  const Manifest* manifest = nullptr;
  std::map<std::string, std::string> chapter_of_src;  // src folder -> chapter id
  std::map<std::string, const Chapter*> chapters_by_id;
  SymbolUsers symbol_users;  // symbol -> the chapters that declare it
  bool strict = false;
  bool measured_now = false;
  // The reference GPU's records (book/reference-gpu), when the book is woven for another GPU:
  // the box and each claim show them beside this GPU's. Null when this GPU is the reference.
  const MeasurementStore* reference = nullptr;
  // This GPU is the book's reference (or none is named): what it skipped or failed is then
  // missing from the book itself, an error for a strict build; on another GPU, a warning.
  bool woven_is_reference = true;
};

struct ChapterOutput {
  std::string markdown;
  std::vector<ClaimResult> claims;
  std::vector<KernelResult> kernels;
  std::set<std::string> figures;  // roofline IDs it shows ("3.1", "book")
  bool stale = false;
  bool measured = false;                        // it has a record
  std::vector<KernelResult> reference_kernels;  // the same results on the reference GPU, if any
  std::vector<VariantChoice> variants;          // its choices between variants, in line order
};

ChapterOutput weave_chapter(const Chapter& chapter, const BookContext& book,
                            Diagnostics& diagnostics);

// Is the chapter's record older than its code? Compares the record's sources_sha256 with the hash
// of the files the manifest lists for it (or, without a manifest, the files the record lists).
// A record without a sources_sha256 is stale: nothing shows which code its numbers measured.
bool is_stale(const Chapter& chapter, const Record& record, const BookContext& book);

}  // namespace weave
