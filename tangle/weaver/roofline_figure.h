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

namespace weave {

struct PlacedPoint {
  int number = 0;             // its marker's number: measured kernels in front-matter order, from 1
  std::string chapter, name;  // name: the normalised result key
  std::string label;  // "v3_sequential" (with "@size" where the chapter has two sizes of it)
  double flops = 0, rate = 0;  // the chapter's FLOPs and FLOPs over the measured time
  double intensity = 0;  // FLOP per DRAM byte: ncu's count when `counted`, else the model's bytes
  bool counted = false;
  std::optional<double> l2_intensity, l1_intensity;  // FLOP per L2 and per L1 byte, counted
  std::string roof;       // the ceiling that bounds it at its intensity (memory or compute)
  double attainable = 0;  // that roof's FLOP/s at its intensity
};

// The memory roof points are measured against: the best measured stream (B_read or B_copy).
std::string memory_roof(const Roofs& roofs);

// The chapter's measured kernels, placed and numbered from `first`.
std::vector<PlacedPoint> place_points(const std::string& chapter,
                                      const std::vector<KernelResult>& kernels, const Roofs& roofs,
                                      int first = 1);

// Whether the levels figure (one point per level per kernel) can be drawn.
bool has_levels(const std::vector<PlacedPoint>& points);

// Rewrites the woven Markdown's roofline figures (](figures/roofline-ID.svg)): alt text and the
// caption's sentence on each, the key table after its paragraph, and the levels figure after that
// where `points` of that ID have L2 and L1 counts. `points` is keyed by figure ID ("3.1", "book").
std::string annotate_figures(const std::string& markdown,
                             const std::map<std::string, std::vector<PlacedPoint>>& points,
                             const Roofs& roofs);

}  // namespace weave
