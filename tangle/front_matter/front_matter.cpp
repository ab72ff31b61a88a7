#include "front_matter.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

namespace front_matter {

namespace {

// A line without its '\r' and trailing spaces or tabs.
std::string_view rtrim(std::string_view line) {
  size_t end = line.find_last_not_of(" \t\r");
  return end == std::string_view::npos ? std::string_view() : line.substr(0, end + 1);
}

// A message on one line: a control character quoted from the chapter (yaml-cpp quotes what it
// could not read) is written as \xNN.
std::string printable(std::string_view text) {
  std::string out;
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    if (byte >= 0x20 && byte != 0x7f) {
      out += ch;
    } else {
      const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
  }
  return out;
}

// What a lexical pass over the YAML finds before yaml-cpp reads it. yaml-cpp reads a quoted
// value left open up to the end of the text, and folds a top-level line that is no `key:` into
// the value above it; PyYAML (measure.py) refuses both, so the tools refuse them here, at the
// line to fix. A list or map left open is named where it opened, not where yaml-cpp gave up.
struct Lexical {
  int open_quote = -1;  // the line (0-based) of a quoted value never closed
  int open_flow = -1;   // the line of the innermost '[' or '{' never closed
  int not_a_key = -1;   // the first line at column one that is not `key: ...`
};

bool is_key_line(std::string_view line) {
  if (line[0] == '-' || line[0] == '?' || line[0] == '[' || line[0] == '{')
    return true;  // a list, a complex key or a flow value: yaml-cpp says what is wrong with it
  size_t i = 0;
  if (line[0] == '"' || line[0] == '\'') {
    size_t close = line.find(line[0], 1);
    if (close == std::string_view::npos) return false;
    i = close + 1;
  }
  for (; i < line.size(); ++i)
    if (line[i] == ':' && (i + 1 == line.size() || line[i + 1] == ' ' || line[i + 1] == '\t'))
      return true;
  return false;
}

Lexical scan(const std::vector<std::string_view>& yaml) {
  Lexical found;
  std::vector<int> flows;
  char quote = 0;
  int quote_line = -1;
  for (int n = 0; n < static_cast<int>(yaml.size()); ++n) {
    std::string_view line = yaml[n];
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    if (!quote && flows.empty() && first == 0 && line[0] != '#' && !is_key_line(line) &&
        found.not_a_key < 0)
      found.not_a_key = n;
    char previous = 0;   // the last character outside a quote on this line, 0 at its start
    bool spaced = true;  // whitespace since `previous`
    for (size_t c = first; c < line.size(); ++c) {
      char ch = line[c];
      if (quote) {
        if (quote == '"' && ch == '\\') {
          ++c;
        } else if (ch == quote) {
          if (quote == '\'' && c + 1 < line.size() && line[c + 1] == '\'')
            ++c;  // '' is a quote
          else
            quote = 0;
        }
        if (!quote) previous = ch, spaced = false;
        continue;
      }
      if (ch == ' ' || ch == '\t') {
        spaced = true;
        continue;
      }
      if (ch == '#' && spaced) break;  // a comment
      bool value_start = previous == 0 || previous == '[' || previous == '{' || previous == ',' ||
                         ((previous == ':' || previous == '-' || previous == '?') && spaced);
      if ((ch == '"' || ch == '\'') && value_start) {
        quote = ch;
        quote_line = n;
      } else if ((ch == '[' || ch == '{') && (value_start || !flows.empty())) {
        flows.push_back(n);
      } else if ((ch == ']' || ch == '}') && !flows.empty()) {
        flows.pop_back();
      }
      previous = ch;
      spaced = false;
    }
  }
  if (quote) found.open_quote = quote_line;
  if (!flows.empty()) found.open_flow = flows.back();
  return found;
}

class Reader {
 public:
  Reader(FrontMatter& fm, int first_yaml_line) : fm_(fm), offset_(first_yaml_line) {}

  // An alias's mark is its anchor's line, above the key that uses it (tools.md T26: three keys
  // given *h each cited the anchor's line): nothing of a key's value is before the key.
  int line_of(const YAML::Node& node) const {
    return std::max(node.Mark().line + offset_, key_line_);
  }
  void error(int line, std::string message) {
    fm_.errors.push_back({line, "front matter: " + std::move(message)});
  }

  // A plain value; false (with an error) when the node is a list or a map.
  bool scalar(const std::string& key, const YAML::Node& value, std::string& out) {
    if (value.IsNull()) return true;
    if (!value.IsScalar()) {
      error(line_of(value), "'" + key + "' must be a plain value, like " + key + ": \"text\"");
      return false;
    }
    out = value.Scalar();
    return true;
  }

  // A list of names; one name alone is a list of one.
  void names(const std::string& key, const YAML::Node& value, std::vector<Named>& out,
             const char* example) {
    if (value.IsNull()) return;
    if (value.IsScalar()) {
      out.push_back({value.Scalar(), line_of(value)});
      return;
    }
    if (!value.IsSequence()) {
      error(line_of(value), "'" + key + "' must be a list: " + key + ": [" + example + ", ...]");
      return;
    }
    for (const YAML::Node& item : value) {
      if (item.IsScalar() && !item.Scalar().empty())
        out.push_back({item.Scalar(), line_of(item)});
      else
        error(line_of(item), "each of '" + key + "' must be a name, like " + example);
    }
  }

  void kernels(const YAML::Node& value) {
    const char* example = "- {name: \"reduce/v1@2^28\", flops: ..., bytes: ...}";
    if (value.IsNull()) return;
    if (!value.IsSequence()) {
      error(line_of(value), std::string("'kernels' must be a list of ") + example);
      return;
    }
    for (const YAML::Node& item : value) {
      const YAML::Node name = item.IsMap() ? item["name"] : YAML::Node();
      if (!name || !name.IsScalar() || name.Scalar().empty()) {
        error(line_of(item), std::string("each of 'kernels' needs a name: ") + example);
        continue;
      }
      KernelPoint point{name.Scalar(), "", "", "", line_of(item)};
      for (const char* key : {"flops", "bytes"})
        if (const YAML::Node field = item[key])
          scalar(key, field, key[0] == 'f' ? point.flops : point.bytes);
      if (const YAML::Node figure = item["figure"]) {
        scalar("figure", figure, point.figure);
        if (point.figure.empty() ||
            point.figure.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") !=
                std::string::npos) {
          error(line_of(item),
                "a kernel's 'figure' names one of the chapter's figures in lower-case letters, "
                "digits and '-' (figure: rungs, shown by roofline:ID/rungs)");
          point.figure.clear();
        }
      }
      fm_.kernels.push_back(std::move(point));
    }
  }

  void fields(const YAML::Node& root) {
    std::map<std::string, int> seen;
    for (const auto& entry : root) {  // entry-> would dangle: yaml-cpp's iterator gives a proxy
      const YAML::Node key = entry.first;
      const YAML::Node value = entry.second;
      key_line_ = 0;
      int line = key_line_ = line_of(key);
      if (!key.IsScalar()) {
        error(line, "a key must be a plain name, like id:");
        continue;
      }
      const std::string& name = key.Scalar();
      if (auto [first, fresh] = seen.emplace(name, line); !fresh) {
        error(line, "'" + name + "' is written twice (first on line " +
                        std::to_string(first->second) + "): keep one");
        continue;
      }
      if (name == "id") {
        if (scalar(name, value, fm_.id)) fm_.id_line = line;
      } else if (name == "title") {
        if (scalar(name, value, fm_.title)) fm_.title_line = line;
      } else if (name == "src") {
        if (scalar(name, value, fm_.src)) fm_.src_line = line;
      } else if (name == "symbols") {
        names(name, value, fm_.symbols, "B_copy");
      } else if (name == "profile") {
        names(name, value, fm_.profile, "\"reduce/v1_naive@268435456\"");
      } else if (name == "kernels") {
        kernels(value);
      }  // any other key is the renderer's (or no one's): not read here
    }
  }

 private:
  FrontMatter& fm_;
  int offset_;        // the chapter line of the YAML's first line
  int key_line_ = 0;  // the line of the key whose value is read
};

}  // namespace

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

FrontMatter read(std::string_view text) {
  FrontMatter fm;
  std::vector<std::string_view> lines = split_lines(text);
  auto is_fence = [](std::string_view line, bool closing) {
    line = rtrim(line);
    return line == "---" || (closing && line == "...");
  };
  if (lines.empty() || !is_fence(lines[0], false)) return fm;
  size_t close = 1;
  while (close < lines.size() && !is_fence(lines[close], true)) ++close;
  if (close == lines.size()) {
    fm.errors.push_back(
        {1, "the front matter opened here is never closed: end it with a line '---'"});
    return fm;
  }
  fm.present = true;
  fm.closing_line = static_cast<int>(close) + 1;
  fm.body_line = fm.closing_line + 1;

  std::vector<std::string_view> yaml_lines(lines.begin() + 1, lines.begin() + close);
  std::string yaml;
  for (std::string_view& line : yaml_lines) {
    if (line.ends_with('\r')) line.remove_suffix(1);
    yaml.append(line).push_back('\n');
  }
  Reader reader(fm, 2);
  Lexical lexical = scan(yaml_lines);
  if (lexical.open_quote >= 0) {
    reader.error(lexical.open_quote + 2,
                 "a quoted value opened on this line is not closed: end it with the same quote");
  } else if (lexical.not_a_key >= 0) {
    reader.error(lexical.not_a_key + 2, "expected 'key: value' here, found '" +
                                            std::string(rtrim(yaml_lines[lexical.not_a_key])) +
                                            "'");
  } else {
    try {
      YAML::Node root = YAML::Load(yaml);
      if (root.IsMap()) {
        reader.fields(root);
      } else if (!root.IsNull()) {
        reader.error(reader.line_of(root), "expected 'key: value' lines, like id: \"3.1\"");
      }
    } catch (const YAML::Exception& failure) {
      int line = failure.mark.is_null() ? 0 : failure.mark.line;
      std::string message = "this is not YAML (" + failure.msg + ")";
      // YAML::Load reads no file: "bad file" is its depth guard (YAML::DeepRecursion, whose
      // type the library does not export), tools.md P3
      if (failure.msg == YAML::ErrorMsg::BAD_FILE) {
        message =
            "nested too deeply (front matter needs at most three levels: kernels, a kernel,"
            " its fields): flatten it";
      }
      if (failure.msg.find("flow not found") != std::string::npos && lexical.open_flow >= 0) {
        line = lexical.open_flow;
        message = "a [list] or {map} opened on this line is not closed with ] or }";
      }
      reader.error(line + 2, message);
    }
  }
  for (Problem& problem : fm.errors) problem.message = printable(problem.message);
  std::stable_sort(fm.errors.begin(), fm.errors.end(),
                   [](const Problem& a, const Problem& b) { return a.line < b.line; });
  return fm;
}

}  // namespace front_matter
