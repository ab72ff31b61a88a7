// A chapter's YAML front matter: the shared reader's (tangle/front_matter/), its errors reported
// at chapter.md:LINE like every other diagnostic of the weaver.
#pragma once
#include <string>
#include <vector>

#include "diagnostics.h"
#include "front_matter/front_matter.h"

namespace weave {

using front_matter::FrontMatter;
using front_matter::KernelPoint;
using front_matter::Named;

// Reads the front matter at the top of `lines` (1-based line numbers in diagnostics).
FrontMatter read_front_matter(const std::vector<std::string>& lines, const std::string& file,
                              Diagnostics& diagnostics);

}  // namespace weave
