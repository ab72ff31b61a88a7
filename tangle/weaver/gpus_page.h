// The "GPUs" page (gpus.md): every GPU folder of book/measurements/ side by side, a hardware
// matrix. A table of the GPUs (a column each; name, date, clocks, SMs, measured ceilings as
// rows), then, chapter by chapter, its headline results (each ladder's last rung and its peer,
// last_rungs.h, and the kernels of its front matter) on each GPU, each with its speed against the
// reference GPU's and against the library peer measured in the same run. weave.cpp adds the
// list of where the book does not hold (told.h) and the variants each GPU chose.
// Woven only when the folder holds more than one GPU's records, so a book of one GPU is unchanged.
#pragma once
#include <string>
#include <vector>

#include "chapter_pass.h"

namespace weave {

struct GpuColumn {
  std::string slug;  // nvidia-h200: its folder's name
  const MeasurementStore* store = nullptr;
};

inline constexpr const char* kGpusPageId = "GPUs";
inline constexpr const char* kGpusPageBasename = "gpus";
// The page is rendered as "GPUs side by side": its id, then its title (like "C Your GPU").
inline constexpr const char* kGpusPageTitle = "side by side";

// The page's Markdown. `woven` is the slug the book is woven for, `reference` the reference's
// ("" when none is named); columns are in folder order, the reference's first.
std::string gpus_page(const std::vector<const Chapter*>& chapters, std::vector<GpuColumn> gpus,
                      const std::string& woven, const std::string& reference,
                      const BookContext& book);

}  // namespace weave
