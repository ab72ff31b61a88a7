#include "variants_page.h"

namespace weave {
namespace {

std::string cell_text(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string option_name(const VariantChoice& choice, int option) {
  const VariantOption& o = choice.options[option];
  std::string name = o.otherwise ? "`.otherwise`" : "`.when`";
  if (!choice.inline_form || !o.words.empty())
    name += " (line " + std::to_string(o.line) + ")" +
            (o.words.empty() ? "" : ": *" + cell_text(o.words) + "*");
  return name;
}

// One GPU's variant at each choice of a chapter, in the chapter's order (a parent before the
// choices nested in it): the option chosen, else -1, and the cell that says so.
std::vector<std::pair<int, std::string>> picks_of(const std::vector<VariantChoice>& choices,
                                                  const Scope& scope) {
  std::vector<std::pair<int, std::string>> picks;
  for (const VariantChoice& c : choices) {
    if (c.parent >= 0 && picks[c.parent].first != c.parent_option) {
      picks.emplace_back(-1, "— (not woven: inside a variant of line " +
                                 std::to_string(choices[c.parent].line) + " not chosen here)");
      continue;
    }
    const Pick p = pick(c, scope);
    if (p.chosen >= 0)
      picks.emplace_back(p.chosen, option_name(c, p.chosen));
    else if (p.failed >= 0)
      picks.emplace_back(-1, "cannot be chosen: " + cell_text(p.why.message));
    else
      picks.emplace_back(-1, "none (no `.when` holds)");
  }
  return picks;
}

}  // namespace

std::string variants_section(const std::vector<WovenChapter>& chapters,
                             const std::vector<GpuColumn>& gpus, const BookContext& book) {
  std::string header = "| chapter | line | passage |", rule = "|:--|--:|:--|";
  for (const GpuColumn& g : gpus) {
    header +=
        " " +
        (g.store->machine && !g.store->machine->gpu.empty() ? g.store->machine->gpu : g.slug) +
        " `" + g.slug + "` |";
    rule += ":--|";
  }
  std::string rows;
  for (const WovenChapter& w : chapters) {
    const std::vector<VariantChoice>& choices = w.output.variants;
    if (choices.empty()) continue;
    std::vector<std::vector<std::pair<int, std::string>>> columns;
    for (const GpuColumn& g : gpus)
      columns.push_back(picks_of(choices, Scope(*g.store, w.chapter->fm.id, book.chapter_of_src)));
    for (size_t i = 0; i < choices.size(); ++i) {
      const VariantChoice& c = choices[i];
      const std::string words = c.options.empty() ? "" : c.options.front().words;
      rows += "| [" + w.chapter->fm.id + "](" + w.chapter->basename + ".html) | " +
              std::to_string(c.line) + " | " + (c.inline_form ? "inline: " : "") +
              (words.empty() ? "—" : "*" + cell_text(words) + "*") + " |";
      for (const auto& column : columns) rows += " " + column[i].second + " |";
      rows += "\n";
    }
  }
  if (rows.empty()) return "";
  return "## Where the prose follows the record\n\n"
         "Some passages are written in variants, and each GPU's book weaves the one its own "
         "records choose: the first `.when` whose relation holds there, else the `.otherwise` "
         "(book/SYNTAX.md, \"Variants\"). Each choice in the book, by its chapter's line and its "
         "first variant's first words, and the variant each GPU gets.\n\n" +
         header + "\n" + rule + "\n" + rows + "\n";
}

}  // namespace weave
