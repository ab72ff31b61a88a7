// Which chapter lines Markdown reads as code or as an HTML comment, found by cmark (the parser the
// tangler reads chapters with) and not by line shapes: an indented code block (four spaces, or
// eight inside a list item) showing the span syntax was woven inside the code, and so was a span
// in an HTML comment (tools.md O4; SYNTAX.md: code is never woven).
#pragma once
#include <string>
#include <vector>

namespace weave {

// One flag a line (line 1 first): true where the line lies in a code block (indented or fenced)
// or in an HTML block that is a comment.
std::vector<bool> code_lines(const std::vector<std::string>& lines);

}  // namespace weave
