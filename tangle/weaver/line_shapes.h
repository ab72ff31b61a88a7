// The shapes of the Pandoc lines cmark does not know, read on the lines where cmark's tree lets a
// fence be (div_lines.h, divs.h): ::: divs, the box and symbols-table directives, claim openings.
// Prefix tests with find calls, not std::regex: libstdc++'s matcher recurses once per character, so
// one heading or div line of 50 000 characters overflowed the stack (tools.md C1). Lines hold no
// control character but the tab (check_utf8_lines refuses the others), so "white space" here is a
// space or a tab.
#pragma once
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

}  // namespace weave
