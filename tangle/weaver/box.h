// The dated hardware box: a Pandoc div (.hwbox) with the chapter's declared symbols bound to this
// generation's values, its key results, the GPU, the date measured, the software versions and the
// SM clocks, and whether the numbers are stale or were measured in this very build.
#pragma once
#include <string>
#include <vector>

#include "front_matter.h"
#include "rooflines.h"
#include "symbols.h"

namespace weave {

struct BoxInput {
  std::string file;  // the chapter, for messages
  const FrontMatter* fm = nullptr;
  const SymbolTable* symbols = nullptr;
  const Scope* scope = nullptr;
  const MeasurementStore* store = nullptr;
  const std::vector<KernelResult>* kernels = nullptr;
  bool stale = false;
  bool measured_now = false;  // make book measured just before weaving
  // The reference GPU, when the book is woven for another: its column beside this GPU's.
  const Scope* reference = nullptr;
  const MeasurementStore* reference_store = nullptr;
  const std::vector<KernelResult>* reference_kernels = nullptr;
};

// The box's Markdown lines. Symbol values that cannot be found are errors at the symbol's line.
std::vector<std::string> render_box(const BoxInput& in, Diagnostics& diagnostics);

// The table cell for a value: its span, or "—" when the quantity was not recorded.
std::string cell(const Value& value, const std::string& title);

}  // namespace weave
