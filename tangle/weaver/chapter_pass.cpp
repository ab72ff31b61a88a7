#include "chapter_pass.h"

#include <algorithm>

#include "blocks.h"
#include "box.h"
#include "chapter_report.h"
#include "divs.h"
#include "figure_refs.h"
#include "line_shapes.h"
#include "spans.h"
#include "variants.h"

namespace weave {
namespace {

// Pandoc's Markdown reader takes time exponential in how deeply brackets nest: about 2.6 times
// more a level, 12 levels 40 s and 15 over a minute for one line (tools.md RD01, silently, in
// every render). The book nests two; past kMaxBrackets the chapter's line is an error here,
// before Pandoc. Block quotes and list items a line nests past kMaxQuotes are refused too:
// Pandoc's tree of one was too deep for the EPUB's reader, named by the woven file, not the
// chapter line (R9).
constexpr int kMaxBrackets = 8;
constexpr int kMaxQuotes = 32;

void check_nesting(const std::vector<std::string>& lines, const Blocks& blocks, size_t first,
                   const std::string& file, Diagnostics& diagnostics) {
  // the code spans' columns on each line: their brackets are text
  std::vector<std::vector<std::pair<int, int>>> code(lines.size() + 1);
  for (const CodeSpan& c : blocks.code_spans)
    for (int l = c.line; l <= c.end_line && l <= static_cast<int>(lines.size()); ++l)
      code[l].emplace_back(l == c.line ? c.column : 1,
                           l == c.end_line ? c.end_column : static_cast<int>(lines[l - 1].size()));
  int depth = 0;
  bool said = false;  // once a paragraph
  for (size_t i = first; i < lines.size(); ++i) {
    const std::string& text = lines[i];
    const int n = static_cast<int>(i) + 1;
    if (blocks.roles[i] == LineRole::code || text.find_first_not_of(" \t>") == std::string::npos) {
      depth = 0;
      said = false;
      continue;
    }
    // the containers a line opens: '>' and list markers ("- ", "* ", "+ ", "1. ") at its start
    int quotes = 0;
    for (size_t k = text.find_first_not_of(" \t"); k < text.size();
         k = text.find_first_not_of(" \t", k + 1)) {
      if (text[k] != '>') {
        size_t digits = text.find_first_not_of("0123456789", k);
        const bool bullet = text[k] == '-' || text[k] == '*' || text[k] == '+';
        const bool ordered =
            digits != k && digits < text.size() && (text[digits] == '.' || text[digits] == ')');
        const size_t after = bullet ? k + 1 : ordered ? digits + 1 : std::string::npos;
        if (after == std::string::npos || after >= text.size() ||
            (text[after] != ' ' && text[after] != '\t'))
          break;
        k = after;
      }
      ++quotes;
    }
    if (quotes > kMaxQuotes)
      diagnostics.error(file, n,
                        "block quotes and list items nest " + std::to_string(quotes) +
                            " levels deep here; the book's reader and its EPUB take at most " +
                            std::to_string(kMaxQuotes) + ": flatten them");
    const auto& spans = code[n];  // in order along the line
    size_t next = 0;
    for (size_t k = 0; k < text.size(); ++k) {
      const int column = static_cast<int>(k) + 1;
      while (next < spans.size() && spans[next].second < column) ++next;
      if (next < spans.size() && spans[next].first <= column) {
        k = static_cast<size_t>(spans[next].second) - 1;  // past the span
        continue;
      }
      if (text[k] == '\\') {
        ++k;
      } else if (text[k] == '[') {
        if (++depth > kMaxBrackets && !said) {
          diagnostics.error(file, n,
                            "brackets [ ] nest more than " + std::to_string(kMaxBrackets) +
                                " levels deep here: Pandoc's time grows about 2.6 times a level "
                                "(12 levels take it 40 s, 15 over a minute); nest at most " +
                                std::to_string(kMaxBrackets) + ", or escape a bracket as \\[");
          said = true;
        }
      } else if (text[k] == ']' && depth > 0) {
        --depth;
      }
    }
  }
}

// One chapter's weave, in passes: the setup (its records, both GPUs' scopes, the box's input), the
// lines (code copied, prose woven a paragraph at a time, the ::: fences handled), and the
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
    inline_context_.variants = &out_.variants;
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

  // Woven lines into the output, each after `prefix` (a block quote's "> " or a list item's
  // indent, for a div inside one; a blank line gets the prefix without its trailing spaces).
  void emit(const std::string& prefix, const std::string& text) {
    const std::string bare = prefix.substr(0, prefix.find_last_not_of(" \t") + 1);
    for (size_t start = 0, end = 0; end != std::string::npos; start = end + 1) {
      end = text.find('\n', start);
      std::string line = text.substr(start, end == std::string::npos ? end : end - start);
      lines_.push_back((line.empty() ? bare : prefix) + line);
    }
  }

  void emit_box(const std::string& prefix = "") {
    for (const std::string& l : render_box(box_, diagnostics_)) emit(prefix, l);
    box_done_ = true;
  }

  // The pending paragraph, woven, into the output.
  void flush() {
    if (paragraph_line_ == 0) return;
    inline_context_.parent = open_options_.empty() ? -1 : open_options_.back().choice;
    inline_context_.parent_option = open_options_.empty() ? -1 : open_options_.back().option;
    if (paragraph_dropped_) {  // in a variant not chosen: its inline variants kept, not woven
      record_inline_variants(paragraph_, paragraph_line_, inline_context_);
      paragraph_.clear();
      paragraph_line_ = 0;
      paragraph_dropped_ = false;
      return;
    }
    std::string woven = weave_inline(paragraph_, paragraph_line_, inline_context_) + "\n";
    for (size_t start = 0, end; (end = woven.find('\n', start)) != std::string::npos;
         start = end + 1)
      lines_.push_back(woven.substr(start, end - start));
    paragraph_.clear();
    paragraph_line_ = 0;
  }

  // Every line of the chapter: the front matter kept, code (as cmark reads it) copied, headings
  // woven with the box after the first, the ::: fences cmark's tree places (divs.h) by fence(),
  // prose gathered into paragraphs, blank lines kept.
  void weave_lines() {
    const std::vector<std::string>& all = chapter_.lines;
    blocks_ = read_blocks(all, fm_.present ? fm_.body_line : 1);
    const Blocks& blocks = blocks_;
    check_nesting(all, blocks, fm_.present ? static_cast<size_t>(fm_.body_line - 1) : 0, file_,
                  diagnostics_);
    inline_context_.code_spans = &blocks_.code_spans;
    std::vector<const DivLine*> div_at(all.size(), nullptr);
    for (const DivLine& d : blocks.div_lines) {
      div_at[d.line - 1] = &d;
      has_directive_ = has_directive_ || (d.first && d.indent == 0 &&
                                          is_directive(all[d.line - 1].substr(d.prefix), "box"));
    }
    size_t first = fm_.present ? static_cast<size_t>(fm_.body_line - 1) : 0;
    for (size_t i = 0; i < first && i < all.size(); ++i) lines_.push_back(all[i]);
    if (!has_directive_ && !blocks.has_heading) {  // every page has its box: after the first
      emit_box();                                  // heading, or at the top
      lines_.push_back("");
    }
    DivStack divs(file_, diagnostics_);
    for (size_t i = first; i < all.size(); ++i) {
      const std::string& text = all[i];
      int n = static_cast<int>(i) + 1;
      if (blocks.roles[i] != LineRole::text) {
        flush();
        if (blocks.roles[i] == LineRole::heading && divs.in_variants())
          diagnostics_.error(file_, n,
                             "a heading inside a ::: {.variants} div: a variant is a passage of "
                             "prose; put the heading before the div");
        if (divs.dropped()) continue;  // a variant not chosen: neither code nor heading
        if (blocks.roles[i] == LineRole::code)
          lines_.push_back(text);
        else
          heading(text, n);
        continue;
      }
      const DivKind kind = div_at[i] ? divs.kind(*div_at[i], text) : DivKind::text;
      if (kind != DivKind::text) {
        flush();
        fence(divs, *div_at[i], kind, text);
      } else if (text.find_first_not_of(" \t") != std::string::npos) {  // prose
        outside_variant(divs, n);
        note_words(text);
        if (divs.dropped()) {  // a variant not chosen: not woven, not looked at
          paragraph_ += (paragraph_line_ ? "\n" : "") + text;
          if (!paragraph_line_) paragraph_line_ = n;
          paragraph_dropped_ = true;
          continue;
        }
        for (const DivStack::Open& d : divs.opened())
          if (d.claim >= 0) {  // its prose for the report, without a block quote's "> "
            const std::string& p = claim_prefixes_[d.claim];
            std::string& t = out_.claims[d.claim].text;
            t += (t.empty() ? "" : " ") + (text.starts_with(p) ? text.substr(p.size()) : text);
          }
        paragraph_ += (paragraph_line_ ? "\n" : "") + text;
        if (!paragraph_line_) paragraph_line_ = n;
      } else {
        flush();
        if (!divs.dropped()) lines_.push_back(text);  // a blank line
      }
    }
    flush();
    for (const FenceBlock& f : blocks.fences)
      if (!f.closed)
        diagnostics_.error(file_, f.open_line,
                           "this code block is never closed: end it with a line " + f.fence);
    divs.finish();
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

  // A ::: fence (divs.h): a directive replaced by what it stands for, a claim checked, a div
  // opened or closed (a claim's verdict before its closing fence).
  void fence(DivStack& divs, const DivLine& d, DivKind kind, const std::string& text) {
    const std::string prefix = text.substr(0, d.prefix);
    if ((kind == DivKind::box || kind == DivKind::symbols_table) && divs.in_variants()) {
      diagnostics_.error(file_, d.line,
                         "this directive stands inside a ::: {.variants} div: put it outside, "
                         "where every GPU's book has it");
      return;
    }
    if (kind == DivKind::claim && divs.dropped()) {  // in a variant not chosen: not checked
      divs.open(d);
      return;
    }
    switch (kind) {
      case DivKind::variants:
        open_variants(divs, d, text);
        return;
      case DivKind::when:
      case DivKind::otherwise:
        open_option(divs, d, kind, text);
        return;
      case DivKind::box:
        if (box_done_)
          diagnostics_.error(file_, d.line, "a second ::: box ::: (a chapter has one box)");
        else
          emit_box(prefix);
        return;
      case DivKind::symbols_table:
        for (const std::string& l : render_symbols_table(*book_.symbols, book_.symbol_users, scope_,
                                                         file_, d.line, diagnostics_))
          emit(prefix, l);
        return;
      case DivKind::claim: {
        // in a variant the reference GPU does not choose, the claim is not in its book
        const bool elsewhere =
            beside_ && !open_options_.empty() && open_options_.back().reference_differs;
        out_.claims.push_back(check_claim(text.substr(d.prefix), fm_.id, file_, d.line, scope_,
                                          diagnostics_, elsewhere ? nullptr : beside_));
        out_.claims.back().reference_elsewhere = elsewhere;
        claim_prefixes_.push_back(prefix);
        divs.open(d, static_cast<int>(out_.claims.size()) - 1);
        emit(prefix, claim_opening(out_.claims.back()));
        return;
      }
      case DivKind::open:
        divs.open(d);
        if (!divs.dropped()) lines_.push_back(text);
        return;
      case DivKind::close:
        if (auto closed = divs.close(d)) {
          while (!open_options_.empty() && open_options_.back().line >= closed->line)
            open_options_.pop_back();
          if (closed->variants >= 0)
            close_variants(out_.variants[closed->variants], closed->dropped, prefix);
          if (const int claim = closed->claim; claim >= 0) {
            const std::string gpu = record_                ? record_->gpu
                                    : book_.store->machine ? book_.store->machine->gpu
                                                           : "";
            emit(prefix, "");
            emit(prefix, claim_verdict(out_.claims[claim], gpu, reference_gpu_));
          }
          if (!closed->dropped) lines_.push_back(text);
        }
        return;
      case DivKind::text:
        return;
    }
  }

  // A ::: {.variants} div (variants.h): a choice, its options to come.
  void open_variants(DivStack& divs, const DivLine& d, const std::string& text) {
    VariantChoice choice;
    choice.line = d.line;
    if (!open_options_.empty()) {
      choice.parent = open_options_.back().choice;
      choice.parent_option = open_options_.back().option;
    }
    out_.variants.push_back(choice);
    DivStack::Open o{d.line, d.container};
    o.variants = static_cast<int>(out_.variants.size()) - 1;
    divs.push(o);
    if (!divs.dropped()) lines_.push_back(text);
  }

  // A .when or .otherwise child: woven if it is the first that holds here, else dropped unread.
  void open_option(DivStack& divs, const DivLine& d, DivKind kind, const std::string& text) {
    const DivStack::Open* parent = divs.variants_parent(d);
    const bool otherwise = kind == DivKind::otherwise;
    const std::string name = otherwise ? "::: {.otherwise}" : "::: {.when}";
    if (!parent) {
      diagnostics_.error(file_, d.line,
                         name +
                             " stands only directly inside a ::: {.variants} div (of its own "
                             "block quote or list item): open one around it");
      divs.open(d);
      return;
    }
    const int number = parent->variants;
    VariantChoice& choice = out_.variants[number];
    if (!choice.options.empty() && choice.options.back().otherwise)
      diagnostics_.error(file_, d.line,
                         name + " after the ::: {.otherwise} of line " +
                             std::to_string(choice.options.back().line) +
                             ": the .otherwise is the last variant");
    VariantOption option =
        read_option(text.substr(d.prefix), otherwise, d.line, file_, diagnostics_);
    bool chosen = false;
    if (!divs.dropped() && !choice.decided) {
      const Tried tried = option.otherwise || option.parsed ? try_option(option, scope_)
                                                            : Tried{Tried::Outcome::cannot, {}};
      chosen = tried.outcome == Tried::Outcome::holds;
      choice.decided = tried.outcome != Tried::Outcome::fails;
      if (tried.outcome == Tried::Outcome::cannot && option.parsed)
        choice.problem =
            report_cannot(option, tried.why, file_, diagnostics_, inline_context_.unmeasured_lines);
    }
    choice.options.push_back(option);
    const int index = static_cast<int>(choice.options.size()) - 1;
    if (chosen) choice.chosen = index;
    // The reference GPU's choice, found the same way: whether its book has this passage too.
    ReferencePick& theirs = reference_picks_[number];
    if (beside_ && !theirs.decided) {
      const Tried tried = option.otherwise || option.parsed ? try_option(option, *beside_)
                                                            : Tried{Tried::Outcome::cannot, {}};
      theirs.decided = tried.outcome != Tried::Outcome::fails;
      if (tried.outcome == Tried::Outcome::holds) theirs.chosen = index;
    }
    const bool parent_differs = !open_options_.empty() && open_options_.back().reference_differs;
    DivStack::Open o{d.line, d.container};
    o.choice = true;
    o.dropped = !chosen;
    divs.push(o);
    open_options_.push_back({d.line, number, index, text.substr(0, d.prefix),
                             parent_differs || theirs.chosen != index});
    if (chosen) lines_.push_back(text);
  }

  // The end of a ::: {.variants} div: one with no option is an error; one whose relation is not
  // yet measured here says so where its passage would stand.
  void close_variants(const VariantChoice& choice, bool dropped, const std::string& prefix) {
    if (choice.options.empty())
      diagnostics_.error(file_, choice.line,
                         "this ::: {.variants} div holds no ::: {.when expr=\"...\"}: give it its "
                         "variants, or remove it");
    if (!dropped && choice.chosen < 0 && !choice.problem.empty())
      emit(prefix,
           "[Not yet measured: which passage stands here depends on values not recorded "
           "yet (" +
               choice.problem + ").]{.unmeasured}");
  }

  // Prose directly inside a ::: {.variants} div, outside its options: an error (once a paragraph).
  void outside_variant(const DivStack& divs, int n) {
    if (paragraph_line_ != 0 || divs.opened().empty() || divs.opened().back().variants < 0) return;
    diagnostics_.error(file_, n,
                       "text inside a ::: {.variants} div but outside its ::: {.when} and ::: "
                       "{.otherwise} divs: every GPU's book would drop it; move it into a "
                       "variant, or out of the div");
  }

  // The first prose line of an option gives its first words, for the GPUs page.
  void note_words(const std::string& text) {
    if (open_options_.empty()) return;
    const OpenOption& o = open_options_.back();
    std::string& words = out_.variants[o.choice].options[o.option].words;
    if (words.empty())
      words = first_words(text.starts_with(o.prefix) ? text.substr(o.prefix.size()) : text);
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
  std::vector<std::string> claim_prefixes_;  // each claim's container marks, by claim
  struct OpenOption {
    int line = 0;  // its fence
    int choice = 0, option = 0;
    std::string prefix;              // its container's marks
    bool reference_differs = false;  // the reference GPU's records choose another variant here
  };
  struct ReferencePick {
    bool decided = false;
    int chosen = -1;
  };
  std::map<int, ReferencePick> reference_picks_;  // the reference's choice, by choice number
  std::vector<OpenOption> open_options_;          // the .when/.otherwise divs open, innermost last
  std::string paragraph_;                         // prose lines waiting to be woven together
  int paragraph_line_ = 0;
  bool paragraph_dropped_ = false;  // it stands in a variant not chosen
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
