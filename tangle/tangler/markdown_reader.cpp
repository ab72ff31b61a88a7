#include "markdown_reader.h"

#include <cstdio>

#include <cmark.h>

#include <algorithm>
#include <memory>
#include <string>

#include "attributes.h"
#include "front_matter.h"
#include "front_matter/front_matter.h"
#include "languages.h"

namespace tangle {

namespace {

std::string with_lf_line_endings(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    }
  }
  return out;
}

std::vector<std::string> literal_lines(const char* literal) {
  std::vector<std::string> lines;
  std::string_view text = literal ? literal : "";
  for (std::string_view line : front_matter::split_lines(text)) lines.emplace_back(line);
  return lines;
}

// Is `line`, after its container prefixes (spaces, '>'), a run of at least `length` `fence`
// characters followed only by spaces? That is what closes a fenced block.
bool is_closing_fence(std::string_view line, char fence, size_t length) {
  size_t pos = line.find_first_not_of(" \t>");
  if (pos == std::string_view::npos) return false;
  size_t run = 0;
  while (pos + run < line.size() && line[pos + run] == fence) ++run;
  return run >= length && line.find_first_not_of(" \t", pos + run) == std::string_view::npos;
}

struct Fence {
  char character = 0;  // '`' or '~'; 0 for an indented code block
  size_t length = 0;
};

// cmark reports the column of the fence itself for a fenced block, and of the content for an
// indented one; an indented block whose first line looks like a fence has that line as content.
Fence fence_of(std::string_view opening_line, int column, std::string_view first_content_line) {
  Fence fence;
  if (column < 1 || static_cast<size_t>(column) > opening_line.size()) return fence;
  std::string_view at = opening_line.substr(column - 1);
  if (at.empty() || (at[0] != '`' && at[0] != '~') || at == first_content_line) return fence;
  while (fence.length < at.size() && at[fence.length] == at[0]) ++fence.length;
  if (fence.length >= 3) fence.character = at[0];
  return fence;
}

using Document = std::unique_ptr<cmark_node, decltype(&cmark_node_free)>;
using Iterator = std::unique_ptr<cmark_iter, decltype(&cmark_iter_free)>;

}  // namespace

ChapterReading read_chapter(std::string_view name, std::string_view text) {
  ChapterReading reading;
  Chapter& chapter = reading.chapter;
  chapter.name = std::string(name);
  std::string markdown = with_lf_line_endings(text);
  // A control character (but TAB) has no place in a chapter, as the weaver says too: a NUL was
  // tangled as U+FFFD into code and file names (tools.md T17), and one in the front matter was
  // echoed raw inside a diagnostic (TG18). Said at its line and column, once a line, and the
  // chapter goes no further (no later message repeats the character).
  {
    int line = 1, said = 0;
    size_t line_start = 0;
    bool line_said = false;
    for (size_t i = 0; i < markdown.size(); ++i) {
      const auto c = static_cast<unsigned char>(markdown[i]);
      if (c == '\n') {
        ++line;
        line_start = i + 1;
        line_said = false;
      } else if ((c < 0x20 && c != '\t') || c == 0x7F) {
        if (!line_said && said < 10) {
          char shown[8];
          std::snprintf(shown, sizeof shown, "0x%02X", c);
          reading.diagnostics.push_back(
              {chapter.name, line,
               std::string("the control character ") + shown + " at column " +
                   std::to_string(i - line_start + 1) +
                   " cannot be in a chapter: remove it (write \\0 or \\x1b in code)"});
          ++said;
        }
        line_said = true;
      }
    }
    if (said > 0) return reading;
  }
  FrontMatter front = strip_front_matter(markdown);
  chapter.src_folder = front.src_folder;
  chapter.src_line = front.src_line;
  std::vector<std::string_view> source_lines = front_matter::split_lines(markdown);
  auto error = [&](int line, std::string message) {
    reading.diagnostics.push_back({chapter.name, line, std::move(message)});
  };
  for (auto& [line, message] : front.errors) error(line, std::move(message));
  auto warning = [&](int line, std::string message) {
    reading.warnings.push_back({chapter.name, line, std::move(message)});
  };

  Document document(cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT),
                    cmark_node_free);
  Iterator iterator(cmark_iter_new(document.get()), cmark_iter_free);
  for (cmark_event_type event; (event = cmark_iter_next(iterator.get())) != CMARK_EVENT_DONE;) {
    cmark_node* node = cmark_iter_get_node(iterator.get());
    if (event != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK) continue;
    int start = cmark_node_get_start_line(node);
    int end = cmark_node_get_end_line(node);
    std::vector<std::string> lines = literal_lines(cmark_node_get_literal(node));
    std::string_view opening = start >= 1 && static_cast<size_t>(start) <= source_lines.size()
                                   ? source_lines[start - 1]
                                   : "";
    Fence fence = fence_of(opening, cmark_node_get_start_column(node),
                           lines.empty() ? std::string_view("\n") : std::string_view(lines[0]));
    if (fence.character == 0) {  // indented code: illustration only, but say so if it was meant
      std::string_view first = lines.empty() ? std::string_view() : std::string_view(lines[0]);
      size_t run = std::min(first.find_first_not_of(first.empty() ? '`' : first[0]), first.size());
      if (!first.empty() && (first[0] == '`' || first[0] == '~') && run >= 3) {
        AttributeParse meant = parse_attributes(first.substr(run));
        if (meant.error.empty() && meant.attributes.braced &&
            (meant.attributes.file || meant.attributes.id))
          warning(start,
                  "this fence is indented four spaces or more, so Markdown reads it as "
                  "indented code and it is not tangled: indent it three spaces at most");
      }
      continue;
    }

    // cmark closes a fence left open at the end of its container; a closed block ends on a
    // closing fence line right after its content.
    bool closed = end == start + static_cast<int>(lines.size()) + 1 &&
                  static_cast<size_t>(end) <= source_lines.size() &&
                  is_closing_fence(source_lines[end - 1], fence.character, fence.length);
    if (!closed)
      error(start, "this code fence is never closed: add a line of " +
                       std::string(fence.length, fence.character) + " after the block's last line");

    AttributeParse parse = parse_attributes(cmark_node_get_fence_info(node));
    if (!parse.error.empty()) {
      error(start, parse.error);
      continue;
    }
    Attributes& attributes = parse.attributes;
    if (!attributes.braced || (!attributes.file && !attributes.id)) continue;  // illustration
    if (attributes.file && attributes.id) {
      error(start, "a block has both file= and #" + *attributes.id +
                       " (Entangled would also write the chunk to the file; this tangler does "
                       "not): write ```{." +
                       attributes.language + " #" + *attributes.id +
                       "} for the chunk and a block ```{." + attributes.language + " file=" +
                       *attributes.file + "} holding the line <<" + *attributes.id + ">>");
      continue;
    }
    if (attributes.file) {
      std::string expected = language_mismatch(attributes.language, *attributes.file);
      if (!expected.empty())
        warning(start, "the block is ." + attributes.language + " but its file " +
                           *attributes.file + " is " + expected + ": tag the block ." +
                           expected.substr(0, expected.find(' ')) + ", or rename the file");
    }
    chapter.blocks.push_back(Block{chapter.name, start, attributes.language, attributes.file,
                                   attributes.id, std::move(lines)});
  }
  return reading;
}

}  // namespace tangle
