// Units as powers of three base quantities (seconds, bytes, FLOPs), so an expression's result
// knows its unit: bandwidth / bandwidth is a plain ratio, bytes / time is B/s, and adding a time
// to a bandwidth is an error the author hears about.
//
// Some recorded numbers have no unit the weaver can trust: a counter recorded with unit "", a
// device property such as memory_clock_mhz or memory_bus_bits. Those are *unknown*: they render
// as plain numbers (with a display suffix such as MHz when shown alone), anything computed from
// them is unknown too, and the weaver checks no units there: the author's arithmetic decides.
#pragma once
#include <optional>
#include <string>

namespace weave {

struct Unit {
  int s = 0, B = 0, FLOP = 0;
  bool known = true;
  const char* suffix = "";  // shown after an unknown value that stands alone: "MHz"

  bool operator==(const Unit& o) const {
    return s == o.s && B == o.B && FLOP == o.FLOP && known == o.known;
  }
  bool dimensionless() const { return s == 0 && B == 0 && FLOP == 0; }
  bool plain() const { return known && dimensionless(); }  // a plain number: a count or a ratio
  Unit operator*(const Unit& o) const {
    return {s + o.s, B + o.B, FLOP + o.FLOP, known && o.known, ""};
  }
  Unit operator/(const Unit& o) const {
    return {s - o.s, B - o.B, FLOP - o.FLOP, known && o.known, ""};
  }
};

namespace units {
inline constexpr Unit none{}, seconds{1, 0, 0}, bytes{0, 1, 0}, flops{0, 0, 1};
inline constexpr Unit hertz{-1, 0, 0}, bytes_per_s{-1, 1, 0}, flops_per_s{-1, 0, 1},
    flops_per_byte{0, -1, 1};
inline constexpr Unit unknown{0, 0, 0, false, ""}, megahertz_as_recorded{0, 0, 0, false, "MHz"};
}  // namespace units

// A unit as a record writes it ("s", "B/s", "FLOP/s", ...), with the factor that brings its
// values to base units. "" and "MHz" are unknown (MHz values stay as recorded, shown with "MHz").
// Empty when the string is not one the weaver knows.
struct ParsedUnit {
  Unit unit;
  double scale = 1;
};
std::optional<ParsedUnit> parse_unit(const std::string& text);

// The unit of a machine property by its name's suffix: *_bytes B, *_mhz MHz as recorded, else
// unknown.
ParsedUnit unit_of_property(const std::string& name);

// "B/s", "FLOP/s", "s", "Hz", "FLOP/B", "B·s", ... for messages and reports.
std::string to_string(const Unit& unit);

}  // namespace weave
