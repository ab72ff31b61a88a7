// One run of the tangler, from options to exit status: read the chapters, tangle them in memory,
// then either compare with src/ (--check) or bring src/ up to date. Nothing is written when there
// is any error.
#pragma once

#include <ostream>

#include "options.h"

namespace tangle {

enum ExitStatus : int { kDone = 0, kOutOfStep = 1, kErrors = 2 };

int run(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace tangle
