// Checked claims: a sentence that rests on a measured relation is written as
//   ::: {.claim expr="reduce/v3@2^28 : time < 0.6 * reduce/v2@2^28 : time"}
//   ...
//   :::
// The weaver evaluates the relation on this GPU's records and marks the div as holding or broken,
// with the values, so a rebuild on new hardware says which sentences to revisit.
#pragma once
#include <optional>
#include <string>

#include "evaluate.h"

namespace weave {

struct ClaimResult {
  // not_checked: a result it rests on was skipped or failed on this GPU (its record says why)
  enum class Status { holds, broken, unmeasured, not_checked, invalid };
  std::string chapter_id, file;
  int line = 0;
  std::string expr;  // normalised
  Status status = Status::invalid;
  Evaluation evaluation;
  std::string text;  // the claim's prose, for the report
  // The same relation on the reference GPU's records, when the book is woven for another GPU.
  std::optional<Status> reference_status;
  Evaluation reference_evaluation;
  // It stands in a variant (variants.h) that the reference GPU's records do not choose: the
  // reference's book has another passage here, so the claim is not checked there.
  bool reference_elsewhere = false;
};

const char* status_name(ClaimResult::Status status);  // "holds", "broken", ...

// Reads expr="..." from the opening line, parses and evaluates it. Errors (no expr, a parse
// error, a missing key) are reported at the line and give Status::invalid.
// With `reference` (the reference GPU's records, when the book is woven for another GPU), the
// relation is also evaluated there; what goes wrong there is no error of this book.
ClaimResult check_claim(const std::string& opening, const std::string& chapter_id,
                        const std::string& file, int line, const Scope& scope,
                        Diagnostics& diagnostics, const Scope* reference = nullptr);

// The id of a claim's div in its chapter's page ("claim-2760", its line in the chapter), so a
// chapter's opening and the GPUs page's list (told.h) can link to it.
std::string claim_anchor(const ClaimResult& claim);
// The div's opening line with its verdict class and id, and the verdict shown at the end of the
// div.
std::string claim_opening(const ClaimResult& claim);
// `reference_gpu` names the reference GPU when claim.reference_status is set.
std::string claim_verdict(const ClaimResult& claim, const std::string& gpu,
                          const std::string& reference_gpu = "");

}  // namespace weave
