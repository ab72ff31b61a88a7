// The chapters' roofline points: each `kernels:` entry of the front matter with its FLOPs and
// bytes (from the front matter, else from the record's flops/bytes), its measured time, and so
// its achieved FLOP rate and arithmetic intensity, and the traffic ncu counted where the record
// has it. The box shows them; roofline-inputs.json carries them to the renderer's figure script,
// with the roofs; roofline_figure.h places them and writes what the page says about the figure.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "evaluate.h"
#include "front_matter.h"

namespace weave {

struct KernelResult {
  std::string name;    // normalised result key
  int line = 0;        // its line in the front matter
  std::string owner;   // the chapter whose result it is (another chapter's: borrowed)
  std::string figure;  // the figure it is drawn in: the chapter's id, or "ID-NAME" for figure: NAME
  bool borrowed(const std::string& chapter) const { return !owner.empty() && owner != chapter; }
  std::optional<double> flops, bytes;
  Value time, bandwidth, flop_rate;  // flop_rate and bandwidth as recorded, else computed
  // Counted by ncu in make measure's profile step, where the record has them (absent otherwise).
  std::optional<double> dram_bytes, l2_bytes, l1_bytes, fp32_flops, tensor_flops;
  std::optional<double> shared_wavefronts;  // the LSU's shared-memory passes, loads and stores
  bool measured() const { return time.state == Value::State::known; }
};

// Reads and looks up the chapter's kernels; errors (a bad name, a key not in the record) name
// the front matter's line.
std::vector<KernelResult> kernel_results(const FrontMatter& fm, const std::string& file,
                                         const Scope& scope, Diagnostics& diagnostics);

struct RooflineChapter {
  std::string id, title, basename;
  std::vector<KernelResult> kernels;
  std::vector<std::string> figures;  // the figures of it the book shows: "ID" (roofline:ID),
                                     // "ID-NAME" (roofline:ID/NAME)
};

// A chapter's kernels by the figure they are drawn in (its id first, then "ID-NAME" for each
// named figure, in ID order), each in front-matter order.
std::map<std::string, std::vector<KernelResult>> by_figure(
    const std::vector<KernelResult>& kernels);

// The chapter's kernels as the book's figure shows them: its own (not borrowed), each once, in the
// order of by_figure, so that the book's numbering is the same in the weaver and the plotter.
std::vector<KernelResult> book_kernels(const RooflineChapter& chapter);

// The roofs a figure is drawn under, by ceiling name, in B/s or FLOP/s: machine.json's measured
// ceilings that a roofline uses, and "dram_theoretical", 2 x memory clock x bus width / 8 from
// its context. A ceiling not recorded is simply absent.
using Roofs = std::map<std::string, double>;
Roofs read_roofs(const MeasurementStore& store);

// roofline-inputs.json: {gpu, ceilings: {copy_bandwidth, ...}, figures: [...], chapters: [...]};
// each kernel with its placement (roofline_figure.h) beside its raw numbers. Woven beside a
// reference GPU (roofline_reference.h), also {reference: {gpu, gpu_slug, ceilings}}, each
// chapter's figure its reference_points (the reference's last rungs, placed on its record) and
// book_reference_points.
struct ReferenceSide;
nlohmann::json roofline_inputs(const std::vector<RooflineChapter>& chapters,
                               const MeasurementStore& store, bool book_figure,
                               const ReferenceSide* reference = nullptr);

}  // namespace weave
