// Which files a run owns: from what it tangled and the manifest of earlier runs, the new manifest
// and the files to remove. A run owns the files of the chapters it processed; tangling a subset of
// the book leaves every other chapter's entries, and files, alone.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "diagnostic.h"
#include "manifest.h"
#include "tangler.h"

namespace tangle {

struct Ownership {
  Manifest manifest;  // the manifest to keep after this run
  std::vector<std::string>
      stale;  // files written before by processed chapters, produced by none now
};

// `whole_book`: the run processed book/chapters.txt, so chapters no longer listed there own
// nothing any more. Otherwise only `processed` chapters' entries are replaced, and a file that
// another (unprocessed) chapter also tangles is an error: it would be written with half its blocks.
Ownership settle_ownership(const Manifest& previous, const std::vector<TangledFile>& files,
                           const std::vector<std::string>& processed, bool whole_book,
                           Diagnostics& diagnostics);

}  // namespace tangle
