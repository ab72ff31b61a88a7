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
  enum class Status { holds, broken, unmeasured, invalid };
  std::string chapter_id, file;
  int line = 0;
  std::string expr;  // normalised
  Status status = Status::invalid;
  Evaluation evaluation;
  std::string text;  // the claim's prose, for the report
};

const char* status_name(ClaimResult::Status status);  // "holds", "broken", ...

// Is this line the opening of a claim div (a ::: fence whose attributes hold .claim)?
bool opens_claim(const std::string& line);

// Reads expr="..." from the opening line, parses and evaluates it. Errors (no expr, a parse
// error, a missing key) are reported at the line and give Status::invalid.
ClaimResult check_claim(const std::string& opening, const std::string& chapter_id,
                        const std::string& file, int line, const Scope& scope,
                        Diagnostics& diagnostics);

// The div's opening line with its verdict class, and the verdict shown at the end of the div.
std::string claim_opening(const ClaimResult& claim);
std::string claim_verdict(const ClaimResult& claim, const std::string& gpu);

}  // namespace weave
