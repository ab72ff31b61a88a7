// The reference GPU beside a roofline woven for another GPU: its measured roofs and the last rung
// of each ladder, placed on its own record, drawn faintly under this GPU's (figures/roofline.py),
// and named in the caption and the alt text. Woven for the reference itself, there is none.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "roofline_figure.h"
#include "rooflines.h"

namespace weave {

// The kernels of a figure the reference is drawn for, in their order: of each ladder (results
// named <src>/[<ladder>_]v<N>[letters]_<name>@<args>, as book/render/front.py reads them) the
// rung with the highest N, at each size the figure lists it; of a kernel that is not a rung (a
// sweep, a lone kernel), its last size listed; no library peer (<src>/peer_...).
std::vector<KernelResult> last_rungs(const std::vector<KernelResult>& kernels);

struct ReferenceSide {
  std::string woven_gpu, gpu;  // "NVIDIA H100 80GB HBM3" (this GPU), "NVIDIA H200" (the reference)
  std::string slug;            // the reference's folder: nvidia-h200
  Roofs roofs;                 // the reference's
  // By figure ID ("3.1", "4.1-rungs", "book"): its last rungs placed on the reference's record,
  // numbered as this GPU's marker of the same kernel (0 where this GPU has none).
  std::map<std::string, std::vector<PlacedPoint>> points;
  // The reference's chapters whose record is stale (measured with older code), with its date.
  std::map<std::string, std::string> stale;
};

// The reference's side of every figure: `chapters` holds the reference's kernels (the same front
// matter read against its records, `reference`), `woven` this GPU's placed points by figure ID;
// `store` is this GPU's records. Both have a machine.json.
ReferenceSide reference_side(const std::vector<RooflineChapter>& chapters,
                             const std::map<std::string, std::vector<PlacedPoint>>& woven,
                             const MeasurementStore& reference, const MeasurementStore& store);

// The caption's sentence (Markdown): which is this GPU, which the reference, and what of the
// reference is drawn (in the `levels` figure, its measured roofs alone).
std::string reference_caption(const ReferenceSide& side, const std::string& id,
                              bool levels = false);

// The alt text's sentences (plain): the reference's roofs drawn, with their values, and where
// its last rungs sit.
std::string reference_alt(const ReferenceSide& side, const std::string& id,
                          const FigureRange& range);

// The levels figure's alt sentence: the reference's measured DRAM, L2 and shared roofs.
std::string reference_levels_alt(const ReferenceSide& side);

}  // namespace weave
