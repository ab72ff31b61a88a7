// Checks the chunk graph before anything is expanded: every <<reference>> names a chunk, no chunk
// includes itself (directly or through others), and every named chunk is used.
#pragma once

#include "book_index.h"
#include "diagnostic.h"

namespace tangle {

// Unused chunks are errors, not warnings: a chunk that no file includes is code the reader sees
// in the chapter but the build never compiles, so the book would show untested code.
void check_references(const BookIndex& index, Diagnostics& diagnostics);

}  // namespace tangle
