// The shapes of the Pandoc lines cmark does not know, read on the lines where cmark's tree lets a
// fence be (div_lines.h, divs.h): ::: divs, the box and symbols-table directives, claim openings.
// Prefix tests with find calls, not std::regex: libstdc++'s matcher recurses once per character, so
// one heading or div line of 50 000 characters overflowed the stack (tools.md C1). Lines hold no
// control character but the tab (check_utf8_lines refuses the others), so "white space" here is a
// space or a tab.
#pragma once
#include <optional>
#include <string>

namespace weave {

// ::: alone (three or more colons, white space around): the end of a div.
bool is_div_close(const std::string& line);
// ::: followed by anything but white space: the start of a div.
bool is_div_open(const std::string& line);
// ::: box ::: and ::: symbols-table ::: (any number of colons from three, white space around).
bool is_directive(const std::string& line, const std::string& name);
// ::: {... .claim ...}: a div whose attribute list holds the class claim.
bool is_claim_opening(const std::string& line);
// ::: {... .NAME ...}: a div whose attribute list holds the class NAME (variants, when, otherwise).
bool has_div_class(const std::string& line, const std::string& name);
// The value of KEY="..." or KEY='...' in a line (Pandoc reads both quotes; the first KEY= of
// either kind is the one), or nullopt when there is none or it is never closed.
std::optional<std::string> quoted_attribute(const std::string& line, const std::string& key);

}  // namespace weave
