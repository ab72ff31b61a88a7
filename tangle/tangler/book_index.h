// Gathers the blocks of every chapter into files and named chunks, in book order, and checks what
// can be checked per block: file= paths, the chapter's src: folder, one language per file.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "chapter.h"
#include "diagnostic.h"

namespace tangle {

struct BookIndex {
  // A file's blocks, and the order files first appear in (for a stable output order).
  std::map<std::string, std::vector<const Block*>> files;
  std::vector<std::string> file_order;
  std::map<std::string, std::vector<const Block*>> chunks;  // by id, in book order
  std::vector<const Block*> rejected;  // file blocks refused above; their references still count
};

// The blocks stay owned by `chapters`, which must outlive the index.
BookIndex index_book(const std::vector<Chapter>& chapters, Diagnostics& diagnostics);

// Warnings for a chunk name defined in more than one chapter. Chunk names are global, so such a
// block continues the first chapter's chunk (Entangled's rule, which the tangler keeps): legal,
// and almost always a name chosen twice by accident, whose lines then land in another chapter's
// files. One warning at each later chapter's first block of that name.
Diagnostics cross_chapter_chunks(const std::vector<Chapter>& chapters);

// Why `path` (a file= value) cannot be written, or "" when it is a fine path under src/.
std::string file_path_problem(const std::string& path);

}  // namespace tangle
