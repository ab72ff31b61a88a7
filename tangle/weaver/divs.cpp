#include "divs.h"

#include "line_shapes.h"

namespace weave {

DivKind DivStack::kind(const DivLine& d, const std::string& line) {
  const std::string text = line.substr(d.prefix);
  if (d.indent > 0) {
    diagnostics_.error(file_, d.line,
                       "this ::: is indented " + std::to_string(d.indent) +
                           " space(s), so Pandoc reads it as text, not as a div's fence: start "
                           "it at the first column (of its list item's or block quote's text)");
    return DivKind::text;
  }
  if (is_div_close(text)) return DivKind::close;
  if (!d.first) {
    diagnostics_.error(file_, d.line,
                       "this ::: line continues the paragraph above it, so Pandoc reads it as "
                       "text, not as a div: put a blank line before it");
    return DivKind::text;
  }
  if (is_directive(text, "box")) return DivKind::box;
  if (is_directive(text, "symbols-table")) return DivKind::symbols_table;
  if (is_claim_opening(text)) return DivKind::claim;
  if (has_div_class(text, "variants")) return DivKind::variants;
  if (has_div_class(text, "when")) return DivKind::when;
  if (has_div_class(text, "otherwise")) return DivKind::otherwise;
  return DivKind::open;
}

void DivStack::push(Open o) {
  o.dropped = o.dropped || dropped();
  dropped_ += o.dropped ? 1 : 0;
  variants_ += o.variants >= 0 ? 1 : 0;
  open_.push_back(o);
}

void DivStack::forget(const Open& o) {
  dropped_ -= o.dropped ? 1 : 0;
  variants_ -= o.variants >= 0 ? 1 : 0;
}

const DivStack::Open* DivStack::variants_parent(const DivLine& d) const {
  if (open_.empty() || open_.back().variants < 0 || open_.back().container != d.container)
    return nullptr;
  return &open_.back();
}

std::optional<DivStack::Open> DivStack::close(const DivLine& d) {
  size_t i = open_.size();
  while (i > 0 && open_[i - 1].container != d.container) --i;
  if (i == 0) {
    diagnostics_.error(file_, d.line,
                       "this ::: closes a div that was never opened: remove it, or open one "
                       "with ::: {.class}" +
                           std::string(open_.empty() ? ""
                                                     : " (a ::: closes only a div opened in its "
                                                       "own block quote or list item)"));
    return std::nullopt;
  }
  for (size_t j = i - 1; j < open_.size(); ++j) {
    if (j >= i) never_closed(open_[j]);
    forget(open_[j]);
  }
  const Open closed = open_[i - 1];
  open_.resize(i - 1);
  return closed;
}

void DivStack::finish() {
  for (const Open& o : open_) never_closed(o);
  open_.clear();
  dropped_ = variants_ = 0;
}

void DivStack::never_closed(const Open& o) {
  diagnostics_.error(file_, o.line, "this ::: div is never closed: end it with a line ':::'");
}

}  // namespace weave
