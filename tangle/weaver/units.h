// Units as powers of three base quantities (seconds, bytes, FLOPs), so an expression's result
// knows its unit: bandwidth / bandwidth is a plain ratio, bytes / time is B/s, and adding a time
// to a bandwidth is an error the author hears about.
//
// Every quantity has a unit: the one its record names, else the one its name gives by the rule of
// book/CONVENTIONS.md ("Units": *_time s, *_bytes B, *_rate FLOP/s, ..., and a list of names
// declared dimensionless), which records made before the rule need. A quantity whose record
// names no unit and whose name follows no rule is *unknown*: weaving it, or anything computed
// from it, is an error that says so.
#pragma once
#include <optional>
#include <string>

namespace weave {

struct Unit {
  int s = 0, B = 0, FLOP = 0;
  bool known = true;

  bool operator==(const Unit& o) const {
    return s == o.s && B == o.B && FLOP == o.FLOP && known == o.known;
  }
  bool dimensionless() const { return s == 0 && B == 0 && FLOP == 0; }
  bool plain() const { return known && dimensionless(); }  // a plain number: a count or a ratio
  Unit operator*(const Unit& o) const {
    return {s + o.s, B + o.B, FLOP + o.FLOP, known && o.known};
  }
  Unit operator/(const Unit& o) const {
    return {s - o.s, B - o.B, FLOP - o.FLOP, known && o.known};
  }
};

namespace units {
inline constexpr Unit none{}, seconds{1, 0, 0}, bytes{0, 1, 0}, flops{0, 0, 1};
inline constexpr Unit hertz{-1, 0, 0}, bytes_per_s{-1, 1, 0}, flops_per_s{-1, 0, 1},
    flops_per_byte{0, -1, 1};
inline constexpr Unit unknown{0, 0, 0, false};
}  // namespace units

// A unit as a record writes it ("s", "B/s", "FLOP/s", "MHz", ...), with the factor that brings
// its values to base units (MHz: 1e6, to Hz). "" is unknown: the name decides (unit_by_name).
// Empty when the string is not one the weaver knows.
struct ParsedUnit {
  Unit unit;
  double scale = 1;
};
std::optional<ParsedUnit> parse_unit(const std::string& text);

// The unit a quantity's name gives by the rule of book/CONVENTIONS.md ("Units"): a declared
// dimensionless name gives units::none; a name the rule does not cover gives nothing.
std::optional<ParsedUnit> unit_by_name(const std::string& name);

// The unit of a quantity recorded with the unit text `recorded` under `name`: the recorded one,
// or for "" (records made before the rule) the name's; unknown where neither gives one.
// Empty when `recorded` is not a unit the weaver knows.
std::optional<ParsedUnit> unit_of_quantity(const std::string& name, const std::string& recorded);

// The unit of a machine property (machine.json's context: sm_count, l2_bytes, sm_clock_max_mhz):
// the same rule; unknown where it gives none.
ParsedUnit unit_of_property(const std::string& name);

// "B/s", "FLOP/s", "s", "Hz", "FLOP/B", "B·s", ... for messages and reports.
std::string to_string(const Unit& unit);

}  // namespace weave
