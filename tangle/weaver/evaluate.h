// Evaluates an expression against the measurement store, for one chapter: its own record first,
// then the other chapters' records, and `machine` for machine.json's ceilings and properties.
#pragma once
#include <string>
#include <vector>

#include "expression.h"
#include "measurements.h"

namespace weave {

struct Value {
  enum class State { known, unmeasured, error };
  State state = State::known;
  double number = 0;
  Unit unit;
  std::string message;  // for unmeasured: what is not recorded yet; for error: what to do
  // unmeasured because the result was skipped or failed on this GPU (its record says why, in
  // `message`): not a value still to be measured, but one this GPU did not give
  bool not_run = false;
};

// One term as it was looked up, for titles and the claims report.
struct TermValue {
  std::string text;  // reduce/v1@268435456 : time
  Value value;
  std::string detail;  // "median of 10, spread 2.1%"
  // Its record (or machine.json) is stale: measured, on `measured` (the record's date), with code
  // that has changed since.
  bool stale = false;
  std::string measured;
};

// One comparison of a claim with both sides' values, so a broken claim can show them.
struct Comparison {
  std::string left_text, op, right_text;
  Value left, right;
  bool holds = false;
};

struct Evaluation {
  Value result;  // for a claim: 1 (holds) or 0 (broken)
  std::vector<TermValue> terms;
  std::vector<Comparison> comparisons;
};

// The first stale term of an evaluation, or null: its numbers came from code changed since.
const TermValue* first_stale(const Evaluation& evaluation);

class Scope {
 public:
  Scope(const MeasurementStore& store, std::string chapter_id,
        const std::map<std::string, std::string>& chapter_of_src)
      : store_(store), chapter_id_(std::move(chapter_id)), chapter_of_src_(chapter_of_src) {}
  TermValue lookup(const Term& term) const;
  // The chapter a result key belongs to: the one whose src folder its name starts with (else
  // this scope's chapter).
  std::string owner_of(const std::string& key) const;
  const std::string& chapter_id() const { return chapter_id_; }
  Evaluation evaluate(const Expr& expr) const;

 private:
  TermValue machine_term(const Term& term) const;
  Value eval(const Expr& e, Evaluation& out) const;       // finite, or an error
  Value eval_node(const Expr& e, Evaluation& out) const;  // one step, unchecked

  const MeasurementStore& store_;
  std::string chapter_id_;
  const std::map<std::string, std::string>& chapter_of_src_;  // src folder -> chapter id
};

// "median of 10, spread 2.1%" for a quantity's title.
std::string describe(const Quantity& q, const std::string& statistic);

}  // namespace weave
