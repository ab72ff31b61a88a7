// tangle --check: which files of src/ are out of step with the chapters. Reads, never writes.
#pragma once

#include <string>
#include <vector>

#include "output_tree.h"
#include "ownership.h"
#include "tangler.h"

namespace tangle {

// One sentence per file out of step: it differs, it is missing, or the manifest says the tangler
// wrote it but no chapter produces it now. Empty when src/ is in step.
std::vector<std::string> out_of_step(const OutputTree& tree, const std::vector<TangledFile>& files,
                                     const Ownership& ownership);

}  // namespace tangle
