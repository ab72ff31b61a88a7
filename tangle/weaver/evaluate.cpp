#include "evaluate.h"

#include <cmath>

#include "format.h"

namespace weave {
namespace {

Value error_value(std::string message) { return {Value::State::error, 0, {}, std::move(message)}; }

// A quantity that has no unit (recorded without one, its name under no rule) is an error where it
// is woven: a number shown without its unit, or compared with one that has, says nothing checkable.
Value no_unit(const std::string& what, const std::string& file) {
  return error_value(
      "'" + what + "' has no unit: " + file +
      " records it without one and its name follows no "
      "rule of book/CONVENTIONS.md (\"Units\"); name the counter by the rule (*_time, "
      "*_bytes, ...) or declare it dimensionless there and in the weaver and measure.py");
}

Value statistic_of(const Quantity& q, const std::string& statistic) {
  if (statistic == "min") return {Value::State::known, q.min, q.unit, ""};
  if (statistic == "max") return {Value::State::known, q.max, q.unit, ""};
  if (statistic == "spread")
    return {Value::State::known, q.min != 0 ? q.max / q.min - 1 : 0, units::none, ""};
  return {Value::State::known, q.median, q.unit, ""};
}

std::string list_names(const std::map<std::string, Quantity>& m) {
  std::string names;
  for (const auto& [name, q] : m) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

std::string describe(const Quantity& q, const std::string& statistic) {
  if (q.n == 1) return "one sample";  // a hardware counter: one profiled iteration, no spread
  std::string text = statistic == "spread" ? "max/min - 1" : statistic;
  if (q.n > 0)
    text += (statistic == "spread" ? " over " : " of ") + std::to_string(q.n) +
            (statistic == "spread" ? " runs" : "");
  if (q.has_range && q.min > 0 && statistic == "median")
    text += ", spread " + significant((q.max / q.min - 1) * 100, 2) + "%";
  return text;
}

TermValue Scope::machine_term(const Term& term) const {
  TermValue out{term.text(), {}, ""};
  if (!store_.machine) {
    out.value = {Value::State::unmeasured, 0, {}, "machine.json is not recorded yet"};
    return out;
  }
  const Machine& m = *store_.machine;
  if (auto it = m.not_run.find(term.quantity); it != m.not_run.end()) {
    out.value = {
        Value::State::unmeasured, 0, {}, it->second.status + " on this GPU: " + it->second.reason};
    out.value.not_run = true;
    return out;
  }
  if (auto it = m.ceilings.find(term.quantity); it != m.ceilings.end()) {
    out.stale = m.stale;  // a ceiling measured by the harness's earlier code
    out.measured = m.date;
    out.value = it->second.unit.known ? statistic_of(it->second, term.statistic)
                                      : no_unit(term.text(), m.file);
    out.detail = describe(it->second, term.statistic);
    return out;
  }
  auto property = m.context.find(term.quantity);
  if (property != m.context.end() && property->is_number()) {
    if (term.statistic != "median") {
      out.value = error_value("'" + term.text() + "': a machine property has one value, no ." +
                              term.statistic);
      return out;
    }
    ParsedUnit unit = unit_of_property(term.quantity);
    if (!unit.unit.known) {
      out.value = no_unit(term.text(), m.file);
      return out;
    }
    out.value = {Value::State::known, property->get<double>() * unit.scale, unit.unit,
                 ""};  // no statistic
    out.detail = "device property";
    return out;
  }
  if (m.stale) {  // measured before the harness's code changed: the next make measure records it
    out.value = {Value::State::unmeasured,
                 0,
                 {},
                 m.file + " predates the harness's current code and has no ceiling '" +
                     term.quantity + "': make measure CHAPTER=A records it"};
    return out;
  }
  std::string properties;
  for (const auto& [name, value] : m.context.items())
    if (value.is_number()) properties += (properties.empty() ? "" : ", ") + name;
  out.value =
      error_value(m.file + " has no ceiling or property '" + term.quantity +
                  "' (ceilings: " + list_names(m.ceilings) + "; properties: " + properties + ")");
  return out;
}

std::string Scope::owner_of(const std::string& key) const {
  auto owner = chapter_of_src_.find(key.substr(0, key.find('/')));
  return owner != chapter_of_src_.end() ? owner->second : chapter_id_;
}

TermValue Scope::lookup(const Term& term) const {
  if (term.key == "machine") return machine_term(term);
  TermValue out{term.text(), {}, ""};
  const Record* own = store_.record(chapter_id_);
  const Record* holder = nullptr;
  if (own && own->results.count(term.key)) holder = own;
  for (const auto& [id, record] : store_.records)
    if (!holder && record.results.count(term.key)) holder = &record;
  if (holder) {
    const auto& quantities = holder->results.at(term.key);
    auto q = quantities.find(term.quantity);
    if (q == quantities.end() && holder->stale) {
      // Its chapter's code changed since it was measured: a counter the new code sets is simply
      // not measured yet, as a new result is (the next make measure records it).
      out.value = {Value::State::unmeasured,
                   0,
                   {},
                   holder->file + " predates its chapter's current code and has no quantity '" +
                       term.quantity + "' for '" + term.key + "'"};
      return out;
    }
    if (q == quantities.end() && store_.beside_reference && !holder->profiled) {
      // Another GPU's record made without Nsight Compute: the counter was never asked for there.
      out.value = {Value::State::unmeasured,
                   0,
                   {},
                   "not counted on this GPU: " + holder->file +
                       " was measured without hardware counters (no ncu, or --no-counters)"};
      out.value.not_run = true;
      return out;
    }
    if (q == quantities.end()) {
      // Hardware counters (dram_bytes, stall_*, ...) exist only for the results make measure
      // profiled.
      std::string hint =
          quantities.count("profiled_kernels")
              ? ""
              : "; no hardware counters were recorded for it: list it in the chapter's "
                "profile: front matter and measure with ncu";
      out.value = error_value(holder->file + ": the result '" + term.key + "' has no quantity '" +
                              term.quantity + "' (it has: " + list_names(quantities) + ")" + hint);
      return out;
    }
    out.value = q->second.unit.known || term.statistic == "spread"
                    ? statistic_of(q->second, term.statistic)
                    : no_unit(term.text(), holder->file);
    out.detail = describe(q->second, term.statistic);
    out.stale = holder->stale;
    out.measured = holder->date;
    return out;
  }
  // Skipped or failed on this GPU: its record says why (the chapter's own record first).
  const Record* not_run = own && own->not_run.count(term.key) ? own : nullptr;
  for (const auto& [id, record] : store_.records)
    if (!not_run && record.not_run.count(term.key)) not_run = &record;
  if (not_run) {
    const NotRun& why = not_run->not_run.at(term.key);
    out.value = {Value::State::unmeasured, 0, {}, why.status + " on this GPU: " + why.reason};
    out.value.not_run = true;
    return out;
  }
  // Not recorded anywhere: not yet measured if the chapter that would hold it has no record.
  std::string src = term.key.substr(0, term.key.find('/'));
  auto owner = chapter_of_src_.find(src);
  std::string owner_id = owner != chapter_of_src_.end() ? owner->second : chapter_id_;
  if (!store_.record(owner_id)) {
    out.value = {
        Value::State::unmeasured, 0, {}, "chapter " + owner_id + " has no measurement record yet"};
    return out;
  }
  if (store_.record(owner_id)->stale) {  // its code changed since: the next make measure records it
    out.value = {Value::State::unmeasured,
                 0,
                 {},
                 store_.record(owner_id)->file + " predates the current code of chapter " +
                     owner_id + " and has no result '" + term.key + "'"};
    return out;
  }
  std::string near;
  std::string name = term.key.substr(0, term.key.find('@'));
  for (const auto& [key, q] : store_.record(owner_id)->results)
    if (key.substr(0, key.find('@')) == name) near += (near.empty() ? "" : ", ") + key;
  out.value = error_value("no result '" + term.key + "' in " + store_.record(owner_id)->file +
                          (near.empty() ? ": check the benchmark's name and arguments"
                                        : " (recorded under that name: " + near + ")"));
  return out;
}

Value Scope::eval(const Expr& e, Evaluation& out) const {
  // Every value on the way is finite, or the expression is an error where it is written: a NaN
  // or an infinity was woven as text (10^400 as "NaN×10^-2147483648^", tools.md O1).
  Value v = eval_node(e, out);
  if (v.state == Value::State::known && !std::isfinite(v.number))
    return error_value("'" + to_text(e) + "' is " +
                       (v.number != v.number ? "not a number" : "infinite") +
                       " here: a value the book prints is finite; check the expression and the "
                       "records it reads");
  return v;
}

namespace {
// An expression of typed numbers only (128 / 2, -5, 2^10), no quantity of a record in it.
bool typed_only(const Expr& e) {
  if (e.op == Expr::Op::number) return true;
  if (e.op == Expr::Op::term) return false;
  return (!e.left || typed_only(*e.left)) && (!e.right || typed_only(*e.right));
}
}  // namespace

Value Scope::eval_node(const Expr& e, Evaluation& out) const {
  if (e.op == Expr::Op::number) return {Value::State::known, e.number, e.unit, ""};
  if (e.op == Expr::Op::term) {
    TermValue t = lookup(e.term);
    out.terms.push_back(t);
    return t.value;
  }
  Value a = eval(*e.left, out);
  Value b = e.right ? eval(*e.right, out) : Value{};
  for (const Value* v : {&a, &b})
    if (v->state == Value::State::error) return *v;
  for (const Value* v : {&a, &b})
    if (v->state == Value::State::unmeasured) return *v;
  // Units are checked where both sides know theirs. A typed number without a unit is plain: a
  // time compared with 5, or 1 added to it, is an error (tools.md WV07: `launch_latency < 5`
  // "held" with 9.77 us, `launch_latency + 1` printed 1.00 s); the typed 0 alone goes with any
  // unit (`a : time - b : time > 0`). A plain quantity of a record (a count, a ratio, a value
  // declared dimensionless) still goes with any unit, as before.
  auto zero = [](const Expr* side) {
    return side && side->op == Expr::Op::number && side->number == 0;
  };
  auto typed_plain = [](const Expr* side, const Value& v) {
    return side && v.unit.plain() && typed_only(*side);
  };
  Unit sum_unit = a.unit.plain() ? b.unit : a.unit;
  if (!a.unit.known || !b.unit.known) sum_unit = units::unknown;
  auto same_unit = [&](const char* what) -> std::optional<Value> {
    if (a.unit == b.unit || !a.unit.known || !b.unit.known || zero(e.left.get()) ||
        zero(e.right.get()))
      return std::nullopt;
    if ((a.unit.plain() && !typed_plain(e.left.get(), a)) ||
        (b.unit.plain() && !typed_plain(e.right.get(), b)))
      return std::nullopt;
    return error_value(std::string("cannot ") + what + " " +
                       (a.unit.dimensionless() ? "a plain number" : to_string(a.unit)) + " and " +
                       (b.unit.dimensionless() ? "a plain number" : to_string(b.unit)) + " in '" +
                       to_text(e) + "'" +
                       (a.unit.dimensionless() || b.unit.dimensionless()
                            ? ": a typed number takes its unit after a space (5 us, 128 B, 2 FLOP)"
                            : ""));
  };
  auto compare = [&](const char* op, bool holds) -> Value {
    if (auto bad = same_unit("compare")) return *bad;
    out.comparisons.push_back({to_text(*e.left), op, to_text(*e.right), a, b, holds});
    return {Value::State::known, holds ? 1.0 : 0.0, units::none, ""};
  };
  switch (e.op) {
    case Expr::Op::neg:
      return {Value::State::known, -a.number, a.unit * units::none, ""};
    case Expr::Op::add:
      if (auto bad = same_unit("add")) return *bad;
      return {Value::State::known, a.number + b.number, sum_unit, ""};
    case Expr::Op::sub:
      if (auto bad = same_unit("subtract")) return *bad;
      return {Value::State::known, a.number - b.number, sum_unit, ""};
    case Expr::Op::mul:
      return {Value::State::known, a.number * b.number, a.unit * b.unit, ""};
    case Expr::Op::div:
      if (b.number == 0) return error_value("division by zero in '" + to_text(e) + "'");
      return {Value::State::known, a.number / b.number, a.unit / b.unit, ""};
    case Expr::Op::pow:
      if (!a.unit.dimensionless() || !b.unit.dimensionless())
        return error_value("only plain numbers can be raised to a power");
      return {Value::State::known, std::pow(a.number, b.number), a.unit * b.unit, ""};
    case Expr::Op::lt:
      return compare("<", a.number < b.number);
    case Expr::Op::le:
      return compare("<=", a.number <= b.number);
    case Expr::Op::gt:
      return compare(">", a.number > b.number);
    case Expr::Op::ge:
      return compare(">=", a.number >= b.number);
    case Expr::Op::both:
      return {Value::State::known, (a.number != 0 && b.number != 0) ? 1.0 : 0.0, units::none, ""};
    default:
      return error_value("internal: unexpected expression");
  }
}

const TermValue* first_stale(const Evaluation& evaluation) {
  for (const TermValue& t : evaluation.terms)
    if (t.stale && t.value.state == Value::State::known) return &t;
  return nullptr;
}

Evaluation Scope::evaluate(const Expr& expr) const {
  Evaluation out;
  out.result = eval(expr, out);
  return out;
}

}  // namespace weave
