// libFuzzer harness over the Markdown-facing pass: arbitrary bytes as chapter text, read and
// tangled in memory (no file is touched). A form feed splits the input into two chapters, so
// cross-chapter rules (one language per file, chunks across chapters) are exercised too.
// Beyond "no crash, no sanitizer report", it checks what must hold for any input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "attributes.h"
#include "book_index.h"
#include "markdown_reader.h"
#include "tangler.h"

namespace {

void require(bool holds) {
  if (!holds) std::abort();
}

void check_invariants(const tangle::Tangling& tangling) {
  // Errors and files never come together, and every error names a chapter and a line.
  require(tangling.diagnostics.empty() || tangling.files.empty());
  for (const tangle::Diagnostic& diagnostic : tangling.diagnostics) {
    require(diagnostic.file == "chapters/a.md" || diagnostic.file == "chapters/b.md");
    require(diagnostic.line >= 1);
    require(diagnostic.message.find('\n') == std::string::npos);
  }
  // A warning is one line of a chapter too (its message may quote the src: folder).
  for (const tangle::Diagnostic& warning : tangling.warnings) {
    require(warning.file == "chapters/a.md" || warning.file == "chapters/b.md");
    require(warning.message.find('\n') == std::string::npos);
  }
  // Every file the tangler would write lies under src/ and is a whole number of lines.
  for (const tangle::TangledFile& file : tangling.files) {
    require(tangle::file_path_problem(file.path).empty());
    require(file.content.empty() || file.content.back() == '\n');
    require(file.content.find('\r') == std::string::npos);
    require(!file.chapters.empty());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<tangle::ChapterText> chapters;
  size_t split = input.find('\f');
  chapters.push_back({"chapters/a.md", input.substr(0, split)});
  if (split != std::string::npos) chapters.push_back({"chapters/b.md", input.substr(split + 1)});

  tangle::ExpandLimits limits;
  limits.max_bytes = 1 << 20;  // keep each input fast; the real limit is far larger
  limits.max_depth = 50;
  limits.max_visits = 1 << 16;  // a fan-out stops in milliseconds, under the sanitizers too
  check_invariants(tangle::tangle_texts(chapters, limits));

  // The attribute parser on its own, with the first line as an info string.
  tangle::AttributeParse parse = tangle::parse_attributes(input.substr(0, input.find('\n')));
  require(parse.error.empty() || !parse.error.empty());
  if (parse.error.empty() && parse.attributes.id)
    for (char c : *parse.attributes.id) require(tangle::is_id_char(c));
  return 0;
}
