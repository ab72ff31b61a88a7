// The ::: divs of a chapter, as Pandoc 2.17 (the renderer) reads them, on the candidate lines
// cmark's tree gives (div_lines.h). Pandoc opens a div only at the start of a block (a paragraph's
// first line, or the line after a fence), with its colons at the first column of the block's
// container (the document, a block quote's text, a list item's text), and closes it with a line
// of colons alone in the same container, even one that a paragraph runs on to. A candidate it
// reads as text is an error here, said at its line: a fence indented, or one that continues a
// paragraph, is never what the author meant.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "diagnostics.h"
#include "div_lines.h"

namespace weave {

enum class DivKind {
  text,           // no fence to Pandoc (an error was said)
  open,           // ::: {.class} or ::: name
  claim,          // ::: {.claim expr="..."}
  close,          // ::: alone
  box,            // ::: box ::: (the chapter's box)
  symbols_table,  // ::: symbols-table ::: (appendix B's table)
};

class DivStack {
 public:
  struct Open {
    int line = 0, container = 0;
    int claim = -1;  // the caller's number for a claim, or -1
  };

  DivStack(const std::string& file, Diagnostics& diagnostics)
      : file_(file), diagnostics_(diagnostics) {}

  // What candidate `d` is; `line` is its whole chapter line. Says why one is text.
  DivKind kind(const DivLine& d, const std::string& line);
  void open(const DivLine& d, int claim = -1) { open_.push_back({d.line, d.container, claim}); }
  // Closes the innermost div open in d's container and gives its claim number (or -1); a div
  // opened inside it in another container (a block quote, a list item) that container ended
  // unclosed. None open there: an error, and nullopt.
  std::optional<int> close(const DivLine& d);
  // After the chapter's last line: every div still open is never closed.
  void finish();
  const std::vector<Open>& opened() const { return open_; }

 private:
  void never_closed(const Open& o);

  const std::string& file_;
  Diagnostics& diagnostics_;
  std::vector<Open> open_;  // innermost last
};

}  // namespace weave
