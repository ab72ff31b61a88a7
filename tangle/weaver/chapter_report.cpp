#include "chapter_report.h"

#include <algorithm>

namespace weave {

void report_chapter(const ChapterFindings& findings, const BookContext& book,
                    Diagnostics& diagnostics) {
  const std::string& file = findings.file;
  const FrontMatter& fm = findings.fm;
  const Record* record = findings.record;
  const ChapterOutput& out = findings.out;
  // Not yet measured: fine while the book is being written, an error for a strict build.
  std::vector<int> unmeasured = findings.unmeasured_lines;
  if (!record && !fm.kernels.empty()) unmeasured.push_back(fm.kernels.front().line);
  for (const ClaimResult& c : out.claims)
    if (c.status == ClaimResult::Status::unmeasured) unmeasured.push_back(c.line);
  // An unreadable record is an error already: the values it would have given are not counted
  // again.
  const bool counted = !unmeasured.empty() && book.store->unreadable.empty();
  if (counted && book.strict)
    for (int line : unmeasured)
      diagnostics.error(file, line, "not yet measured (--strict): run make measure on a GPU");
  else if (counted)
    diagnostics.warning(file, unmeasured.front(),
                        std::to_string(unmeasured.size()) +
                            " value(s), claim(s) or figure(s) are not yet measured; they render as "
                            "'not yet measured'");
  // Skipped or failed on this GPU (its record says why): on the reference GPU the book lacks
  // those numbers, an error for a strict build; on another GPU a warning, strict or not.
  std::vector<int> not_run = findings.not_run_lines;
  for (const ClaimResult& c : out.claims)
    if (c.status == ClaimResult::Status::not_checked) not_run.push_back(c.line);
  for (const KernelResult& k : out.kernels)
    if (k.time.not_run && !k.borrowed(fm.id)) not_run.push_back(k.line);
  if (!not_run.empty()) {
    std::sort(not_run.begin(), not_run.end());
    std::string what = std::to_string(not_run.size()) +
                       " value(s), claim(s) or result(s) rest on results skipped or failed on " +
                       "this GPU (" + (record ? record->file : "its record") +
                       " says why); they render as such";
    if (book.strict && book.woven_is_reference)
      diagnostics.error(file, not_run.front(),
                        what +
                            " (--strict, on the reference GPU): make measure on a GPU that "
                            "can run them");
    else
      diagnostics.warning(file, not_run.front(), what);
  }
  for (const ClaimResult& c : out.claims)
    if (c.status == ClaimResult::Status::broken) {
      std::string what = "claim is broken on this GPU: " + c.expr + "; revisit the sentence";
      if (book.strict)
        diagnostics.error(file, c.line, what + " (--strict)");
      else
        diagnostics.warning(file, c.line, what);
    }
  if (out.stale) {
    std::string what =
        "the numbers of chapter " + fm.id + " are stale: " +
        (record->sources_sha256.empty()
             ? record->file + " has no \"sources_sha256\", so nothing ties them to its code"
             : "its code changed after " + record->file + " was measured") +
        "; run make measure CHAPTER=" + fm.id;
    if (book.strict)
      diagnostics.error(file, 1, what + " (--strict)");
    else
      diagnostics.warning(file, 1, what);
  }
}

}  // namespace weave
