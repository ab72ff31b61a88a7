// The GPUs page's section on prose that follows the record (variants.h): every choice between
// variants in the book, where it is and its first words, and the variant each GPU's records choose
// there. Empty when the book has no variants, so the page is then unchanged.
#pragma once
#include <string>
#include <vector>

#include "gpus_page.h"
#include "reports.h"

namespace weave {

// `gpus` in the page's order (the reference's first).
std::string variants_section(const std::vector<WovenChapter>& chapters,
                             const std::vector<GpuColumn>& gpus, const BookContext& book);

}  // namespace weave
