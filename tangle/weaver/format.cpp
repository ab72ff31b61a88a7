#include "format.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

namespace weave {
namespace {

struct Prefix {
  const char* name;
  double factor;
};

// Rounds to `digits` significant digits, so 999.7 ms is seen as 1000 ms before a prefix is chosen.
double round_significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return value;
  double magnitude = std::floor(std::log10(std::fabs(value)));
  double scale = std::pow(10.0, digits - 1 - magnitude);
  return std::round(value * scale) / scale;
}

// The largest prefix whose scaled value is at least 1, else the smallest one.
std::string with_prefix(double value, const std::vector<Prefix>& prefixes, const char* unit,
                        int digits) {
  const Prefix* chosen = &prefixes.front();
  for (const Prefix& p : prefixes)
    if (std::fabs(round_significant(value / p.factor, digits)) >= 1) chosen = &p;
  return significant(value / chosen->factor, digits) + " " + chosen->name + unit;
}

const std::vector<Prefix> si_up = {{"", 1},    {"k", 1e3},  {"M", 1e6},
                                   {"G", 1e9}, {"T", 1e12}, {"P", 1e15}};
const std::vector<Prefix> time_down = {{"n", 1e-9}, {"µ", 1e-6}, {"m", 1e-3}, {"", 1}};
const std::vector<Prefix> binary = {
    {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0}};

std::string plain_number(double value, int digits) {
  // The evaluator refuses what is not finite; this stays defined if one slips through.
  if (!std::isfinite(value)) return value != value ? "NaN" : (value > 0 ? "∞" : "-∞");
  if (value == std::round(value) && std::fabs(value) < 1e7)
    return std::to_string(static_cast<long long>(value));
  double magnitude = value == 0 ? 0 : std::floor(std::log10(std::fabs(value)));
  // rounded first: 9999999.6 is 1.00×10^7^, not 10000000 (a denormal's rounding overflows: kept)
  if (double rounded = round_significant(value, digits); std::isfinite(rounded) && rounded != 0)
    magnitude = std::floor(std::log10(std::fabs(rounded)));
  if (magnitude >= 7 || magnitude <= -4) {  // 2.68×10^8^ in Pandoc's superscript
    double mantissa = round_significant(value / std::pow(10.0, magnitude), digits);
    if (std::fabs(mantissa) >= 10) {  // the rounding carried: 9.9996 is 10.0, so 1.00×10^-4^
      magnitude += 1;                 // (tools.md WV09: 0.000099996 printed 10.0×10^-5^)
      mantissa = round_significant(value / std::pow(10.0, magnitude), digits);
    }
    return significant(mantissa, digits) + "×10^" + std::to_string(static_cast<int>(magnitude)) +
           "^";
  }
  return significant(value, digits);
}

std::string bytes_text(double value, int digits) {
  for (auto it = binary.rbegin(); it != binary.rend(); ++it) {  // exact binary sizes: 60 MiB, 1 GiB
    double scaled = value / it->factor;
    if (std::fabs(scaled) >= 1 && std::fabs(scaled) < 1024 &&
        scaled * 100 == std::round(scaled * 100))
      return significant(scaled, digits, true) + " " + it->name + "B";
  }
  if (std::fabs(value) < 1000 && value == std::round(value))
    return plain_number(value, digits) + " B";
  return with_prefix(value, si_up, "B", digits);
}

std::string default_text(double value, const Unit& unit, int digits) {
  if (unit == units::seconds) return with_prefix(value, time_down, "s", digits);
  if (unit == units::bytes) return bytes_text(value, digits);
  if (unit == units::bytes_per_s) return with_prefix(value, si_up, "B/s", digits);
  if (unit == units::flops_per_s) return with_prefix(value, si_up, "FLOP/s", digits);
  if (unit == units::flops) return with_prefix(value, si_up, "FLOP", digits);
  if (unit == units::hertz) return with_prefix(value, si_up, "Hz", digits);
  if (unit == units::none) return plain_number(value, digits);
  return significant(value, digits) + " " + to_string(unit);
}

// A fixed unit: an optional prefix and one of the base units, e.g. "us", "GB/s", "TFLOP/s", "MiB".
std::optional<std::pair<double, Unit>> parse_fixed(const std::string& fmt, std::string& shown) {
  if (fmt.empty()) return std::nullopt;
  static const std::vector<std::pair<std::string, Unit>> bases = {
      {"FLOP/s", units::flops_per_s}, {"FLOP/B", units::flops_per_byte},
      {"B/s", units::bytes_per_s},    {"FLOP", units::flops},
      {"Hz", units::hertz},           {"B", units::bytes},
      {"s", units::seconds}};
  static const std::vector<Prefix> prefixes = {
      {"", 1},        {"k", 1e3},        {"M", 1e6},          {"G", 1e9},  {"T", 1e12},
      {"P", 1e15},    {"m", 1e-3},       {"u", 1e-6},         {"µ", 1e-6}, {"n", 1e-9},
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}};
  for (const auto& [base, unit] : bases) {
    if (!fmt.ends_with(base)) continue;
    std::string prefix = fmt.substr(0, fmt.size() - base.size());
    for (const Prefix& p : prefixes)
      if (prefix == p.name) {
        shown = (prefix == "u" ? std::string("µ") : prefix) + base;
        return std::make_pair(p.factor, unit);
      }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::pair<double, Unit>> parse_fixed_unit(const std::string& text,
                                                        std::string& shown) {
  return parse_fixed(text, shown);
}

std::string significant(double value, int digits, bool strip_zeros) {
  if (!std::isfinite(value)) return value != value ? "NaN" : (value > 0 ? "∞" : "-∞");
  double rounded = round_significant(value, digits);
  int magnitude = rounded == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
  int decimals = std::max(0, digits - 1 - magnitude);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, rounded);
  std::string text = buffer;
  if (strip_zeros && text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::optional<std::string> format_value(double value, const Unit& unit, const std::string& fmt,
                                        int digits, std::string& error) {
  if (digits < 1 || digits > 12) {
    error = "digits= must be a whole number from 1 to 12 (written as digits=2)";
    return std::nullopt;
  }
  if (!unit.known) {
    error =
        "the value has no unit: a quantity recorded without one whose name follows no rule of "
        "book/CONVENTIONS.md (\"Units\"); name it by the rule or declare it dimensionless";
    return std::nullopt;
  }
  if (fmt.empty()) return default_text(value, unit, digits);
  if (fmt == "%" || fmt == "x") {
    if (!unit.dimensionless()) {
      error = "fmt=\"" + fmt + "\" needs a ratio, but the expression's unit is " + to_string(unit) +
              ": divide by a quantity of the same unit";
      return std::nullopt;
    }
    return fmt == "%" ? significant(value * 100, digits, true) + "%"
                      : significant(value, digits, true) + "×";
  }
  std::string shown;
  auto fixed = parse_fixed(fmt, shown);
  if (!fixed) {
    error = "unknown fmt=\"" + fmt +
            "\": use \"%\", \"x\" or a unit such as \"us\", \"ms\", \"GB/s\", \"TFLOP/s\"";
    return std::nullopt;
  }
  if (!(fixed->second == unit)) {
    error = "fmt=\"" + fmt + "\" is a unit of " + to_string(fixed->second) +
            ", but the value is in " +
            (unit.dimensionless() ? std::string("no unit (a plain number)") : to_string(unit));
    return std::nullopt;
  }
  return significant(value / fixed->first, digits) + " " + shown;
}

std::string inert_text(const std::string& text) {
  auto word = [&](size_t i) {  // text[i] is a letter or digit
    return i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]));
  };
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    // '_' inside a word (v1_naive) and '@' after one (wgmma_rate@2048) are text to Pandoc: kept
    const bool plain =
        (c == '_' && i > 0 && word(i - 1) && word(i + 1)) || (c == '@' && i > 0 && word(i - 1));
    if (byte < 0x20 || byte == 0x7F) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (!plain &&
               std::string_view("<>&\"[]{}`*_\\|$^~@").find(c) != std::string_view::npos) {
      out += "&#" + std::to_string(byte) + ";";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace weave
