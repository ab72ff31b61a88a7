#include "chapter_pass.h"

#include <algorithm>

#include "blocks.h"
#include "box.h"
#include "chapter_report.h"
#include "figure_refs.h"
#include "line_shapes.h"
#include "spans.h"

namespace weave {
namespace {

struct OpenDiv {
  int line;
  int claim = -1;  // index into the claims, or -1
};

// One chapter's weave, in passes: the setup (its records, both GPUs' scopes, the box's input), the
// lines (code copied, prose woven a paragraph at a time, the structure lines handled), and the
// report of what is not measured, not run, broken or stale.
class ChapterWeaver {
 public:
  ChapterWeaver(const Chapter& chapter, const BookContext& book, Diagnostics& diagnostics)
      : chapter_(chapter),
        book_(book),
        diagnostics_(diagnostics),
        fm_(chapter.fm),
        file_(chapter.path),
        scope_(*book.store, fm_.id, book.chapter_of_src),
        record_(book.store->record(fm_.id)),
        reference_(book.reference ? *book.reference : no_records_, fm_.id, book.chapter_of_src),
        beside_(book.reference ? &reference_ : nullptr),
        reference_gpu_(book.reference && book.reference->machine ? book.reference->machine->gpu
                                                                 : ""),
        box_{file_,      &fm_,          book.symbols, &scope_,
             book.store, &out_.kernels, false,        book.measured_now},
        inline_context_{file_, &scope_, &diagnostics, {}, {}, {}, nullptr, ""} {
    out_.measured = record_ != nullptr;
    out_.stale = record_ && is_stale(chapter, *record_, book);
    out_.kernels = kernel_results(fm_, file_, scope_, diagnostics);
    for (const Named& s : fm_.symbols)
      if (book.symbols->readable() && !book.symbols->find(s.name))
        diagnostics.error(file_, s.line,
                          "unknown symbol '" + s.name +
                              "': define it in book/symbols.json (known: " + book.symbols->names() +
                              ")");
    // The reference GPU's records, beside this GPU's: read, never reported (its own build does).
    if (beside_) {
      Diagnostics ignored;
      out_.reference_kernels = kernel_results(fm_, file_, reference_, ignored);
    }
    box_.stale = out_.stale;
    box_.reference = beside_;
    box_.reference_store = book.reference;
    box_.reference_kernels = &out_.reference_kernels;
    inline_context_.reference = beside_;
    inline_context_.reference_gpu = reference_gpu_;
    inline_context_.figure = [this](const std::string& target, int line) {
      return figure(target, line);
    };
  }

  ChapterOutput run() {
    weave_lines();
    report();
    for (const auto& l : lines_) out_.markdown += l + "\n";
    return std::move(out_);
  }

 private:
  // A figure's path (figure_refs.h).
  std::string figure(const std::string& target, int line) {
    return figure_path(target, {file_, line}, book_, diagnostics_, out_.figures,
                       inline_context_.unmeasured_lines);
  }

  void emit_box() {
    auto b = render_box(box_, diagnostics_);
    lines_.insert(lines_.end(), b.begin(), b.end());
    box_done_ = true;
  }

  // The pending paragraph, woven, into the output.
  void flush() {
    if (paragraph_line_ == 0) return;
    std::string woven = weave_inline(paragraph_, paragraph_line_, inline_context_) + "\n";
    for (size_t start = 0, end; (end = woven.find('\n', start)) != std::string::npos;
         start = end + 1)
      lines_.push_back(woven.substr(start, end - start));
    paragraph_.clear();
    paragraph_line_ = 0;
  }

  // Every line of the chapter: the front matter kept, code (as cmark reads it) copied, headings
  // woven with the box after the first, prose gathered into paragraphs, the rest (directives,
  // divs, blank lines) by structure().
  void weave_lines() {
    const std::vector<std::string>& all = chapter_.lines;
    blocks_ = read_blocks(all, fm_.present ? fm_.body_line : 1);
    const Blocks& blocks = blocks_;
    inline_context_.code_spans = &blocks_.code_spans;
    for (size_t i = 0; i < all.size(); ++i)
      has_directive_ =
          has_directive_ || (blocks.roles[i] == LineRole::text && is_directive(all[i], "box"));
    size_t first = fm_.present ? static_cast<size_t>(fm_.body_line - 1) : 0;
    for (size_t i = 0; i < first && i < all.size(); ++i) lines_.push_back(all[i]);
    if (!has_directive_ && !blocks.has_heading) {  // every page has its box: after the first
      emit_box();                                  // heading, or at the top
      lines_.push_back("");
    }
    for (size_t i = first; i < all.size(); ++i) {
      const std::string& text = all[i];
      int n = static_cast<int>(i) + 1;
      if (blocks.roles[i] != LineRole::text) {
        flush();
        if (blocks.roles[i] == LineRole::code)
          lines_.push_back(text);
        else
          heading(text, n);
        continue;
      }
      size_t start = text.find_first_not_of(" \t");
      if (start != std::string::npos && text.compare(start, 3, ":::") != 0) {  // prose
        for (const OpenDiv& d : divs_)
          if (d.claim >= 0)
            out_.claims[d.claim].text += (out_.claims[d.claim].text.empty() ? "" : " ") + text;
        paragraph_ += (paragraph_line_ ? "\n" : "") + text;
        if (!paragraph_line_) paragraph_line_ = n;
        continue;
      }
      flush();
      structure(text, n);
    }
    flush();
    for (const FenceBlock& f : blocks.fences)
      if (!f.closed)
        diagnostics_.error(file_, f.open_line,
                           "this code block is never closed: end it with a line " + f.fence);
    for (const OpenDiv& d : divs_)
      diagnostics_.error(file_, d.line, "this ::: div is never closed: end it with a line ':::'");
  }

  // A heading, woven as a paragraph of its own; the box goes after the first, unless a
  // ::: box ::: places it.
  void heading(const std::string& text, int n) {
    paragraph_ = text;
    paragraph_line_ = n;
    flush();
    if (!has_directive_ && !box_done_) {
      lines_.push_back("");
      emit_box();
    }
  }

  // A text line that is not prose: a directive, a claim or a div opening or closing, or a blank
  // line.
  void structure(const std::string& text, int n) {
    const BookContext& book = book_;
    Diagnostics& diagnostics = diagnostics_;
    const std::string& file = file_;
    const FrontMatter& fm = fm_;
    const Record* record = record_;
    ChapterOutput& out = out_;
    std::vector<std::string>& lines = lines_;
    std::vector<OpenDiv>& divs = divs_;
    const bool box_done = box_done_;
    Scope& scope = scope_;
    const Scope* beside = beside_;
    const std::string& reference_gpu = reference_gpu_;
    if (is_directive(text, "box")) {
      if (box_done)
        diagnostics.error(file, n, "a second ::: box ::: (a chapter has one box)");
      else
        emit_box();
    } else if (is_directive(text, "symbols-table")) {
      auto table =
          render_symbols_table(*book.symbols, book.symbol_users, scope, file, n, diagnostics);
      lines.insert(lines.end(), table.begin(), table.end());
    } else if (opens_claim(text)) {
      out.claims.push_back(check_claim(text, fm.id, file, n, scope, diagnostics, beside));
      divs.push_back({n, static_cast<int>(out.claims.size()) - 1});
      lines.push_back(claim_opening(out.claims.back()));
    } else if (is_div_close(text)) {
      if (divs.empty()) {
        diagnostics.error(file, n,
                          "this ::: closes a div that was never opened: remove it, or open one "
                          "with ::: {.class}");
        return;
      }
      if (divs.back().claim >= 0) {
        std::string gpu = record                ? record->gpu
                          : book.store->machine ? book.store->machine->gpu
                                                : "";
        lines.push_back("");
        lines.push_back(claim_verdict(out.claims[divs.back().claim], gpu, reference_gpu));
      }
      divs.pop_back();
      lines.push_back(text);
    } else if (is_div_open(text)) {
      divs.push_back({n});
      lines.push_back(text);
    } else {
      lines.push_back(text);  // a blank line
    }
  }

  // What the chapter leaves unmeasured, unrun, broken or stale (chapter_report.h).
  void report() {
    report_chapter({file_, fm_, record_, out_, inline_context_.unmeasured_lines,
                    inline_context_.not_run_lines},
                   book_, diagnostics_);
  }

  const Chapter& chapter_;
  const BookContext& book_;
  Diagnostics& diagnostics_;
  ChapterOutput out_;
  const FrontMatter& fm_;
  const std::string& file_;
  Scope scope_;
  const Record* record_;
  const MeasurementStore no_records_;
  Scope reference_;
  const Scope* beside_;
  std::string reference_gpu_;
  BoxInput box_;
  InlineContext inline_context_;

  Blocks blocks_;                   // the chapter as cmark reads it
  std::vector<std::string> lines_;  // the woven chapter
  bool has_directive_ = false;      // a ::: box ::: places the box; else after the first heading
  bool box_done_ = false;
  std::vector<OpenDiv> divs_;
  std::string paragraph_;  // prose lines waiting to be woven together
  int paragraph_line_ = 0;
};

}  // namespace

bool is_stale(const Chapter& chapter, const Record& record, const BookContext& book) {
  if (record.sources_sha256.empty())
    return true;  // nothing ties the numbers to the code they measured
  std::vector<std::string> files;
  if (book.manifest && book.manifest->present())
    files = book.manifest->files_of(chapter.fm.id, chapter.path);
  if (files.empty()) files = record.sources;
  return sources_sha256(book.root, files) != record.sources_sha256;
}

ChapterOutput weave_chapter(const Chapter& chapter, const BookContext& book,
                            Diagnostics& diagnostics) {
  return ChapterWeaver(chapter, book, diagnostics).run();
}

}  // namespace weave
