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
  variants,       // ::: {.variants}: one of its children is woven (variants.h)
  when,           // ::: {.when expr="..."}: a variant, woven when its relation holds
  otherwise,      // ::: {.otherwise}: the variant woven when no .when holds
};

class DivStack {
 public:
  struct Open {
    int line = 0, container = 0;
    int claim = -1;        // the caller's number for a claim, or -1
    int variants = -1;     // the caller's number for a ::: {.variants} div, or -1
    bool choice = false;   // a .when or .otherwise child of a .variants div
    bool dropped = false;  // not woven: a variant not chosen, or a div inside one
  };

  DivStack(const std::string& file, Diagnostics& diagnostics)
      : file_(file), diagnostics_(diagnostics) {}

  // What candidate `d` is; `line` is its whole chapter line. Says why one is text.
  DivKind kind(const DivLine& d, const std::string& line);
  void open(const DivLine& d, int claim = -1) { push(Open{d.line, d.container, claim}); }
  // Opens `o` (its line and container set); one opened inside a dropped div is dropped too.
  void push(Open o);
  // Closes the innermost div open in d's container and gives it (its claim number, its variants
  // number); a div opened inside it in another container (a block quote, a list item) that
  // container ended unclosed. None open there: an error, and nullopt.
  std::optional<Open> close(const DivLine& d);
  // Whether the lines here are dropped: inside a variant that is not chosen.
  bool dropped() const { return dropped_ > 0; }
  // The innermost open div, if it is a ::: {.variants} in d's container (a .when's parent).
  const Open* variants_parent(const DivLine& d) const;
  // Whether any ::: {.variants} div is open.
  bool in_variants() const { return variants_ > 0; }
  // After the chapter's last line: every div still open is never closed.
  void finish();
  const std::vector<Open>& opened() const { return open_; }

 private:
  void never_closed(const Open& o);

  const std::string& file_;
  Diagnostics& diagnostics_;
  void forget(const Open& o);  // the counts below, as `o` is closed

  std::vector<Open> open_;  // innermost last
  int dropped_ = 0;         // open divs that are dropped
  int variants_ = 0;        // open ::: {.variants} divs
};

}  // namespace weave
