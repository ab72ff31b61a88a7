// Where each kernel sits on its chapter's roofline, and what the page says about the figure: the
// alt text, a sentence added to the caption naming what is drawn, the key table beside the figure
// (numbered like the figure's markers), and the hierarchical figure where ncu counted L2 and L1
// traffic. The figure script (figures/roofline.py) draws the same points from roofline-inputs.json.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rooflines.h"
#include "units.h"

namespace weave {

struct PlacedPoint {
  int number = 0;             // its marker's number: measured kernels in front-matter order, from 1
  std::string chapter, name;  // chapter: whose result it is; name: the normalised result key
  std::string label;  // "v3_sequential" (with "@size" where the chapter has two sizes of it)
  double flops = 0, rate = 0;  // the chapter's FLOPs and FLOPs over the measured time
  double intensity = 0;  // FLOP per DRAM byte: ncu's count when `counted`, else the model's bytes
  bool counted = false;
  std::optional<double> l2_intensity, l1_intensity;      // FLOP per L2 and per L1 byte, counted
  double model_bytes = 0;                                // the chapter's bytes (0: none given)
  std::optional<double> dram_bytes, l2_bytes, l1_bytes;  // counted by ncu
  // Shared memory: kSharedBytesPerWavefront for each wavefront the LSU's shared pipe counted, an
  // upper bound of the bytes and exactly the pipe's work in the units B_smem is measured in.
  std::optional<double> shared_bytes, shared_intensity;
  // Bytes the SMs exchanged with L2 beyond what the L1's tag stage and the shared pipe counted
  // (l2 - l1 - shared), where that is more than kUnseenShare of the L2 bytes: traffic that
  // passes neither counter (TMA copies; wgmma then reads their tiles unseen too). Such a
  // kernel's L1 and shared levels are not drawn.
  std::optional<double> unseen_bytes;
  std::string roof;       // the ceiling that bounds it at its intensity (memory or compute)
  double attainable = 0;  // that roof's FLOP/s at its intensity
};

// One wavefront of the shared pipe moves at most 32 banks x 4 bytes.
constexpr double kSharedBytesPerWavefront = 128;
// Counters of one run are exact counts; a share this small is left to rounding.
constexpr double kUnseenShare = 0.01;

// The memory roof points are measured against: the best measured stream (B_read or B_copy).
std::string memory_roof(const Roofs& roofs);

// The chapter's measured kernels, placed and numbered from `first`. A kernel borrowed from another
// chapter is labelled with that chapter's id ("3.1 v7_last_block").
std::vector<PlacedPoint> place_points(const std::string& chapter,
                                      const std::vector<KernelResult>& kernels, const Roofs& roofs,
                                      int first = 1);

// The range a figure is drawn over, fitted to its points as figures/roofline.py fits it: intensity
// from a third of the least to three times the most, rate from a third of the least up to 2.5
// times the highest of the points and of the best memory roof above each (capped by the top
// compute roof). The reference's points, where drawn beside, count with their own roofs.
struct FigureRange {
  double lo_x = 0, hi_x = 0, lo_y = 0, hi_y = 0;
};
FigureRange figure_range(const std::vector<PlacedPoint>& points, const Roofs& roofs,
                         const std::vector<PlacedPoint>* reference_points = nullptr,
                         const Roofs* reference_roofs = nullptr);

// "B_read 4.3 TB/s, B_copy 4.01 TB/s, F_fp32 60.1 TFLOP/s": the roofs of `roofs` that show inside
// `range`, as figures/roofline.py draws them ($B_\text{read}$ where `math`); `measured_only`
// leaves out the theoretical DRAM roof (the reference's faint roofs are the measured ones).
std::string roofs_in_range(const FigureRange& range, const Roofs& roofs, bool math,
                           bool measured_only = false);

// A roof's name ("B_read", or "$B_\text{read}$" where `math`), a fraction as a percentage
// ("97%") and a value with its unit to 3 digits ("4.3 TB/s"): shared with roofline_reference.cpp.
std::string roof_text(const std::string& ceiling, bool math);
std::string percent(double fraction);
std::string with_unit(double value, const Unit& unit);

// Whether the levels figure (one point per counted level per kernel) can be drawn: some kernel
// has an L2 count.
bool has_levels(const std::vector<PlacedPoint>& points);

// Rewrites the woven Markdown's roofline figures (](figures/roofline-ID.svg)): alt text and the
// caption's sentence on each, the key table after its paragraph, and the levels figure after that
// where `points` of that ID have L2 and L1 counts; a named figure ("4.1-rungs") also gets the table
// of each kernel's model bytes beside the bytes counted at each level. `points` is keyed by figure
// ID ("3.1", "4.1-rungs", "book").
// Woven for a GPU other than the reference, `reference` holds the reference's roofs and last
// rungs (roofline_reference.h): the caption and the alt text name both GPUs and the reference's
// roofs; null, each figure is this GPU's alone.
struct ReferenceSide;
std::string annotate_figures(const std::string& markdown,
                             const std::map<std::string, std::vector<PlacedPoint>>& points,
                             const Roofs& roofs, const ReferenceSide* reference = nullptr);

}  // namespace weave
