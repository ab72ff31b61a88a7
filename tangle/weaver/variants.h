// Prose that follows the record (book/SYNTAX.md, "Variants"): of a ::: {.variants} div's children,
// ::: {.when expr="..."} tried in order and an optional last ::: {.otherwise}, the first whose
// relation holds on this GPU's records is woven, the others dropped unread (their claims not
// checked, their values not looked up); inline, [A]{.when expr="..."}[B]{.otherwise} in a
// paragraph. A relation is a claim's (`<`, `<=`, `>`, `>=`, joined by `and`); one that cannot be
// evaluated on this GPU (a missing key, a skipped result, a counter not counted) is an error at its
// line, as a claim's is; one not yet measured leaves the passage 'not yet measured'.
// Each choice is kept for the GPUs page, which shows the variant every GPU gets (variants_page.h).
#pragma once
#include <string>
#include <vector>

#include "diagnostics.h"
#include "evaluate.h"

namespace weave {

struct VariantOption {
  bool otherwise = false;
  int line = 0;
  std::string expr;   // normalised (empty for .otherwise, or a relation that did not parse)
  ExprPtr parsed;     // null for .otherwise, or a relation that did not parse
  std::string words;  // its first words, for the GPUs page
};

struct VariantChoice {
  int line = 0;  // the ::: {.variants} fence, or the inline form's first .when
  bool inline_form = false;
  // The choice it is nested in (its number in the chapter's list) and that choice's option it
  // stands in; -1 at the top.
  int parent = -1, parent_option = -1;
  std::vector<VariantOption> options;
  // On the woven GPU: the option woven, or -1 (none holds and no .otherwise, or none could be
  // chosen: `problem` says why).
  int chosen = -1;
  bool decided = false;  // chosen, or known to be none (while the chapter is read)
  std::string problem;
};

// One option tried on a GPU's records.
struct Tried {
  enum class Outcome { holds, fails, cannot };
  Outcome outcome = Outcome::fails;
  Value why;  // for cannot: the value that could not be found (unmeasured or error)
};
Tried try_option(const VariantOption& option, const Scope& scope);

// What a choice comes to on one GPU's records: the option chosen, or -1 with `why` when one
// could not be evaluated (why.state is then unmeasured or error).
struct Pick {
  int chosen = -1;
  int failed = -1;  // the option whose relation could not be evaluated
  Value why;
};
Pick pick(const VariantChoice& choice, const Scope& scope);

// A .when's or .otherwise's opening (`opening` past its container's marks, or an inline span's
// attributes), its relation parsed; a .when without expr= or with one that does not parse is an
// error at `line`.
VariantOption read_option(const std::string& opening, bool otherwise, int line,
                          const std::string& file, Diagnostics& diagnostics);

// Says why `option` could not be evaluated on the woven GPU: an error at its line, or (not yet
// measured) a line for the chapter's report; gives the choice's `problem`.
std::string report_cannot(const VariantOption& option, const Value& why, const std::string& file,
                          Diagnostics& diagnostics, std::vector<int>& unmeasured_lines);

// A passage's first words, for the GPUs page: at most eight, a woven span as "…".
std::string first_words(const std::string& text);

}  // namespace weave
