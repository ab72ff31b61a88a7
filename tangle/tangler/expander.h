// Writes a file's text: its header line, then its blocks in book order with every <<reference>>
// replaced by the chunk's blocks (indented like the reference), and #line directives for
// C-family files so the compiler names the chapter line.
#pragma once

#include <string>
#include <vector>

#include "book_index.h"
#include "diagnostic.h"

namespace tangle {

struct ExpandLimits {
  // A file larger than this is an error, not an out-of-memory: 64 MiB, where the book's largest
  // tangled file is well under 1 MiB, keeps a run within 1 GiB (issue 22 goal 5).
  size_t max_bytes = size_t{1} << 26;
  int max_depth = 200;  // references nested deeper than this are an error
  // Lines and blocks that references bring in, in a run (all files): chunks of empty blocks, each
  // including the next twice, add no bytes but double the work at every level (60 levels ran for
  // ever, tools.md C5). A file's own lines do not count: they cost their bytes once, which
  // max_bytes bounds (tools.md TG08: 1.2 million lines of plain code were refused as a fan-out).
  // The whole book's src/ is 24 000 lines; a million for a run is ample.
  size_t max_visits = size_t{1} << 20;
};

struct ExpandedFile {
  std::string content;
  std::vector<std::string> chapters;  // the chapters whose blocks make up the file, in book order
  size_t visits =
      0;  // lines and blocks brought in by references so far in the run, this file's too
};

// The graph must have been checked (check_references) with no errors. `visits_before`: the
// visits of the run's files expanded before this one (the limit is for the run).
ExpandedFile expand_file(const std::string& path, const BookIndex& index,
                         const ExpandLimits& limits, Diagnostics& diagnostics,
                         size_t visits_before = 0);

}  // namespace tangle
