#include "units.h"

#include <map>

namespace weave {

std::optional<ParsedUnit> parse_unit(const std::string& text) {
  static const std::map<std::string, ParsedUnit> known = {
      {"", {units::unknown, 1}},
      {"s", {units::seconds, 1}},
      {"B", {units::bytes, 1}},
      {"FLOP", {units::flops, 1}},
      {"B/s", {units::bytes_per_s, 1}},
      {"FLOP/s", {units::flops_per_s, 1}},
      {"FLOP/B", {units::flops_per_byte, 1}},
      {"Hz", {units::hertz, 1}},
      {"MHz", {units::megahertz_as_recorded, 1}},
      {"GHz", {units::hertz, 1e9}},
      {"bit", {units::unknown, 1}},
      {"bits", {units::unknown, 1}},
  };
  auto it = known.find(text);
  if (it == known.end()) return std::nullopt;
  return it->second;
}

ParsedUnit unit_of_property(const std::string& name) {
  auto ends_with = [&](const std::string& suffix) { return name.ends_with(suffix); };
  if (ends_with("_bytes")) return {units::bytes, 1};
  if (ends_with("_mhz")) return {units::megahertz_as_recorded, 1};
  if (ends_with("_seconds")) return {units::seconds, 1};
  return {units::unknown, 1};
}

std::string to_string(const Unit& unit) {
  if (!unit.known) return "(no unit recorded)";
  if (unit == units::none) return "";
  if (unit == units::hertz) return "Hz";
  std::string top, bottom;
  auto put = [&](const char* name, int power) {
    std::string& side = power > 0 ? top : bottom;
    int n = power > 0 ? power : -power;
    if (n == 0) return;
    if (!side.empty()) side += "·";
    side += name;
    if (n > 1) side += "^" + std::to_string(n);
  };
  put("FLOP", unit.FLOP);
  put("B", unit.B);
  put("s", unit.s);
  if (top.empty()) top = "1";
  return bottom.empty() ? top : top + "/" + bottom;
}

}  // namespace weave
