// Inline weaving on a paragraph of prose: [EXPR]{.m fmt="..." digits=N} becomes the number as a
// reader sees it, in a span whose title says where it came from; ![caption](roofline:ID) points
// at the figure the renderer draws. Inline code (`...`) is left as written.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "blocks.h"
#include "diagnostics.h"
#include "evaluate.h"
#include "variants.h"

namespace weave {

// What `figure` returns for a figure that cannot be drawn yet (no ceilings measured): the image
// becomes a "not yet measured" note, so the page has no broken image.
inline constexpr const char* kUnmeasuredFigure = "-";

struct InlineContext {
  std::string file;  // chapters/3.1-reduction.md
  const Scope* scope = nullptr;
  Diagnostics* diagnostics = nullptr;
  // Given a roofline ID and the line, returns the figure's path, kUnmeasuredFigure, or empty
  // (having reported why).
  std::function<std::string(const std::string& id, int line)> figure;
  std::vector<int> unmeasured_lines;  // lines where a value is not yet measured
  std::vector<int> not_run_lines;     // lines where a value was skipped or failed on this GPU
  // The reference GPU's records, when this book is woven for another GPU: a value this GPU did
  // not give is shown with the reference's beside it.
  const Scope* reference = nullptr;
  std::string reference_gpu;  // "NVIDIA H200"
  // The chapter's inline code spans, as cmark found them (blocks.h). Without them a paragraph's
  // are found by reading it alone with cmark (enough for a paragraph given on its own).
  const std::vector<CodeSpan>* code_spans = nullptr;
  // Where the inline form's choices are kept ([A]{.when expr="..."}[B]{.otherwise}, variants.h),
  // and the block variant (its choice's number and option) the paragraph stands in, or -1.
  std::vector<VariantChoice>* variants = nullptr;
  int parent = -1, parent_option = -1;
};

// Offsets into a paragraph, [begin, end), of its inline code spans, in order.
using CodeRanges = std::vector<std::pair<size_t, size_t>>;

// The rendered span of a value: [1.23 ms]{.measured title="..."}, [not yet measured]{.unmeasured},
// [skipped on this GPU: needs 26.0 GiB, 23.6 GiB free]{.unmeasured .not-run}, or empty with `error`
// set (a bad fmt for this unit).
std::string value_span(const Value& value, const std::string& title, const std::string& fmt,
                       int digits, std::string& error);

// For each '[' of `text`, the index of the ']' that closes it (counting nested pairs), or npos
// when an inline code span, a blank line or the end comes first; npos at every other index (and
// at a '[' inside code). The code spans are `code`'s, or cmark's reading of `text` alone.
std::vector<size_t> closing_brackets(const std::string& text, const CodeRanges& code);
std::vector<size_t> closing_brackets(const std::string& text);

// `title` made safe for a Pandoc attribute value.
std::string attribute_text(std::string text);

// Weaves one paragraph (its lines joined by '\n', the first at `first_line`), so a span may wrap.
std::string weave_inline(const std::string& paragraph, int first_line, InlineContext& context);

// A paragraph in a variant not chosen (variants.h): not woven, but its inline variants are kept
// in context.variants for the GPUs page (their relations read, not evaluated).
void record_inline_variants(const std::string& paragraph, int first_line, InlineContext& context);

}  // namespace weave
