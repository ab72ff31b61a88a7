#include "chapter_pass.h"

#include <algorithm>

#include "box.h"
#include "code_lines.h"
#include "line_shapes.h"
#include "spans.h"

namespace weave {
namespace {

// A closing fence: the opening's character, at least as many, nothing after but spaces.
bool closes_fence(const std::string& text, const std::string& fence) {
  size_t i = text.find_first_not_of(' ');
  if (i == std::string::npos || i > 3) return false;
  size_t j = text.find_first_not_of(fence[0], i);
  size_t run = (j == std::string::npos ? text.size() : j) - i;
  return run >= fence.size() &&
         (j == std::string::npos || text.find_first_not_of(" \t\r", j) == std::string::npos);
}

struct OpenDiv {
  int line;
  int claim = -1;  // index into the claims, or -1
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
  ChapterOutput out;
  const FrontMatter& fm = chapter.fm;
  const std::string& file = chapter.path;
  Scope scope(*book.store, fm.id, book.chapter_of_src);
  const Record* record = book.store->record(fm.id);
  out.measured = record != nullptr;
  out.stale = record && is_stale(chapter, *record, book);
  out.kernels = kernel_results(fm, file, scope, diagnostics);
  for (const Named& s : fm.symbols)
    if (!book.symbols->find(s.name))
      diagnostics.error(file, s.line,
                        "unknown symbol '" + s.name + "': define it in book/symbols.json (known: " +
                            book.symbols->names() + ")");

  // The reference GPU's records, beside this GPU's: read, never reported (its own build does).
  const MeasurementStore no_records;
  Scope reference(book.reference ? *book.reference : no_records, fm.id, book.chapter_of_src);
  const Scope* beside = book.reference ? &reference : nullptr;
  std::string reference_gpu =
      book.reference && book.reference->machine ? book.reference->machine->gpu : "";
  if (beside) {
    Diagnostics ignored;
    out.reference_kernels = kernel_results(fm, file, reference, ignored);
  }

  BoxInput box{file,       &fm,          book.symbols, &scope,
               book.store, &out.kernels, out.stale,    book.measured_now};
  box.reference = beside;
  box.reference_store = book.reference;
  box.reference_kernels = &out.reference_kernels;
  InlineContext inline_context{file, &scope, &diagnostics, {}, {}, {}, nullptr, ""};
  inline_context.reference = beside;
  inline_context.reference_gpu = reference_gpu;
  // A figure's path; kUnmeasuredFigure while there are no ceilings to draw it under; "" on an
  // error.
  bool ceilings = book.store->machine && book.store->machine->ceilings.count("copy_bandwidth");
  inline_context.figure = [&](const std::string& target, int line) -> std::string {
    // roofline:ID draws chapter ID's kernels; roofline:ID/NAME those it lists with figure: NAME.
    const std::string id = target.substr(0, target.find('/'));
    const std::string name =
        target.find('/') == std::string::npos ? "" : target.substr(target.find('/') + 1);
    const std::string figure_id = name.empty() ? id : id + "-" + name;
    if (id != "book") {
      auto it = book.chapters_by_id.find(id);
      if (it == book.chapters_by_id.end()) {
        diagnostics.error(
            file, line,
            "roofline:" + target + " names no chapter: use a chapter's id or roofline:book");
        return "";
      }
      const auto& kernels = it->second->fm.kernels;
      if (kernels.empty()) {
        diagnostics.error(
            file, line,
            "roofline:" + target + ": chapter " + id + " lists no kernels: in its front matter");
        return "";
      }
      bool listed = std::any_of(kernels.begin(), kernels.end(),
                                [&](const KernelPoint& k) { return k.figure == name; });
      if (!listed) {
        diagnostics.error(
            file, line,
            "roofline:" + target + ": chapter " + id + " lists no kernel " +
                (name.empty() ? std::string("without a figure: field") : "with figure: " + name) +
                " in its front matter");
        return "";
      }
      if (!ceilings && book.store->record(id) && !book.store->machine_unreadable) {
        diagnostics.error(file, line,
                          "roofline:" + target + ": chapter " + id +
                              " has kernels but no ceilings to draw "
                              "them under: " +
                              book.store->folder + "/machine.json is missing; run make measure");
        return "";
      }
    } else if (!name.empty()) {
      diagnostics.error(
          file, line,
          "roofline:" + target + ": the book's figure has no named parts: use roofline:book");
      return "";
    }
    if (!ceilings) {
      inline_context.unmeasured_lines.push_back(line);
      return kUnmeasuredFigure;
    }
    out.figures.insert(figure_id);
    return "figures/roofline-" + figure_id + ".svg";
  };

  bool wants_box = true;  // every page has its box: at least the GPU, the date and the versions
  bool has_directive = false;
  for (const auto& l : chapter.lines) has_directive = has_directive || is_directive(l, "box");
  bool box_done = false;
  std::vector<std::string> lines;
  auto emit_box = [&] {
    auto b = render_box(box, diagnostics);
    lines.insert(lines.end(), b.begin(), b.end());
    box_done = true;
  };

  std::vector<OpenDiv> divs;
  std::string fence;  // the open code fence, empty outside code
  int fence_line = 0;
  std::string paragraph;  // prose lines waiting to be woven together
  int paragraph_line = 0;
  auto flush = [&] {
    if (paragraph_line == 0) return;
    std::string woven = weave_inline(paragraph, paragraph_line, inline_context) + "\n";
    for (size_t start = 0, end; (end = woven.find('\n', start)) != std::string::npos;
         start = end + 1)
      lines.push_back(woven.substr(start, end - start));
    paragraph.clear();
    paragraph_line = 0;
  };
  const std::vector<bool> code = code_lines(chapter.lines);
  size_t first = fm.present ? static_cast<size_t>(fm.body_line - 1) : 0;
  for (size_t i = 0; i < first && i < chapter.lines.size(); ++i) lines.push_back(chapter.lines[i]);
  if (wants_box &&
      !has_directive) {  // after the first heading, or at the top of a body without one
    bool any_heading = false;
    for (size_t i = first; i < chapter.lines.size(); ++i)
      any_heading = any_heading || is_heading(chapter.lines[i]);
    if (!any_heading) {
      emit_box();
      lines.push_back("");
    }
  }
  for (size_t i = first; i < chapter.lines.size(); ++i) {
    const std::string& text = chapter.lines[i];
    int n = static_cast<int>(i) + 1;
    if (!fence.empty()) {
      lines.push_back(text);
      if (closes_fence(text, fence)) fence.clear();
      continue;
    }
    if (code[i] && fence_opening(text).empty()) {  // an indented code block, an HTML comment
      flush();
      lines.push_back(text);
      continue;
    }
    size_t start = text.find_first_not_of(" \t");
    bool prose = start != std::string::npos && text.compare(start, 3, ":::") != 0 &&
                 fence_opening(text).empty() && !is_heading(text);
    if (prose) {
      for (const OpenDiv& d : divs)
        if (d.claim >= 0)
          out.claims[d.claim].text += (out.claims[d.claim].text.empty() ? "" : " ") + text;
      paragraph += (paragraph_line ? "\n" : "") + text;
      if (!paragraph_line) paragraph_line = n;
      continue;
    }
    flush();
    if (std::string run = fence_opening(text); !run.empty()) {
      fence = run;
      fence_line = n;
      lines.push_back(text);
    } else if (is_directive(text, "box")) {
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
        continue;
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
    } else if (is_heading(text)) {
      paragraph = text;
      paragraph_line = n;
      flush();
      if (wants_box && !has_directive && !box_done) {
        lines.push_back("");
        emit_box();
      }
    } else {
      lines.push_back(text);  // a blank line
    }
  }
  flush();
  if (!fence.empty())
    diagnostics.error(file, fence_line,
                      "this code block is never closed: end it with a line " + fence);
  for (const OpenDiv& d : divs)
    diagnostics.error(file, d.line, "this ::: div is never closed: end it with a line ':::'");

  // Not yet measured: fine while the book is being written, an error for a strict build.
  const auto& unmeasured = inline_context.unmeasured_lines;
  if (!record && !fm.kernels.empty())
    inline_context.unmeasured_lines.push_back(fm.kernels.front().line);
  for (const ClaimResult& c : out.claims)
    if (c.status == ClaimResult::Status::unmeasured)
      inline_context.unmeasured_lines.push_back(c.line);
  // An unreadable record is an error already: the values it would have given are not counted again.
  const bool counted = !unmeasured.empty() && book.store->unreadable.empty();
  if (counted && book.strict)
    for (int line : unmeasured)
      diagnostics.error(file, line, "not yet measured (--strict): run make measure on a GPU");
  else if (counted)
    diagnostics.warning(file, unmeasured.front(),
                        std::to_string(unmeasured.size()) +
                            " value(s), claim(s) or figure(s) are not yet measured; they render as "
                            "'not yet measured'");
  // Skipped or failed on this GPU (its record says why): on the reference GPU the book lacks
  // those numbers, an error for a strict build; on another GPU a warning, strict or not.
  std::vector<int> not_run = inline_context.not_run_lines;
  for (const ClaimResult& c : out.claims)
    if (c.status == ClaimResult::Status::not_checked) not_run.push_back(c.line);
  for (const KernelResult& k : out.kernels)
    if (k.time.not_run && !k.borrowed(fm.id)) not_run.push_back(k.line);
  if (!not_run.empty()) {
    std::sort(not_run.begin(), not_run.end());
    std::string what = std::to_string(not_run.size()) +
                       " value(s), claim(s) or result(s) rest on results skipped or failed on " +
                       "this GPU (" + (record ? record->file : "its record") +
                       " says why); they render as such";
    if (book.strict && book.woven_is_reference)
      diagnostics.error(file, not_run.front(),
                        what +
                            " (--strict, on the reference GPU): make measure on a GPU that "
                            "can run them");
    else
      diagnostics.warning(file, not_run.front(), what);
  }
  for (const ClaimResult& c : out.claims)
    if (c.status == ClaimResult::Status::broken) {
      std::string what = "claim is broken on this GPU: " + c.expr + "; revisit the sentence";
      if (book.strict)
        diagnostics.error(file, c.line, what + " (--strict)");
      else
        diagnostics.warning(file, c.line, what);
    }
  if (out.stale) {
    std::string what =
        "the numbers of chapter " + fm.id + " are stale: " +
        (record->sources_sha256.empty()
             ? record->file + " has no \"sources_sha256\", so nothing ties them to its code"
             : "its code changed after " + record->file + " was measured") +
        "; run make measure CHAPTER=" + fm.id;
    if (book.strict)
      diagnostics.error(file, 1, what + " (--strict)");
    else
      diagnostics.warning(file, 1, what);
  }
  for (const auto& l : lines) out.markdown += l + "\n";
  return out;
}

}  // namespace weave
