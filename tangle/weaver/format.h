// How a number is shown to a reader: its unit with an SI prefix and three significant digits
// (1.23 ms, 4.27 TB/s, 66.9 TFLOP/s), or the form the author asked for with fmt=:
// "%" a percentage, "x" a ratio, or a fixed unit ("us", "ms", "GB/s", "TFLOP/s", "MiB", ...).
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "units.h"

namespace weave {

// `value` is in base units (s, B, FLOP and their quotients). On a bad fmt, or a fixed unit that
// does not match the value's unit, returns nothing and says why in `error`.
std::optional<std::string> format_value(double value, const Unit& unit, const std::string& fmt,
                                        int digits, std::string& error);

// A fixed unit as fmt= and expression literals spell it ("us", "GB/s", "KiB", "MHz"): its factor
// to base units and its unit; `shown` gets its printed form ("µs"). Empty for any other text.
std::optional<std::pair<double, Unit>> parse_fixed_unit(const std::string& text,
                                                        std::string& shown);

// `value` to `digits` significant digits, in fixed notation ("1.20", "132", "0.00123");
// with strip_zeros, trailing zeros after the point are dropped ("1.2").
std::string significant(double value, int digits, bool strip_zeros = false);

// Text from a record (a skipped result's reason, which is a benchmark's stderr; a context string),
// made inert wherever it is woven: in Markdown text, a table cell, a span's title="..." and raw
// HTML alike. Every character Markdown, Pandoc or HTML could read as markup becomes its numeric
// entity (&#60; for '<'), which Pandoc and browsers show as the character itself; line breaks,
// tabs and other control characters become one space, so no record opens a block or a line
// (tools.md WV04: an <img onerror> in a reason ran 14 times in a page, a newline opened a div).
std::string inert_text(const std::string& text);

}  // namespace weave
