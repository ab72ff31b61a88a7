#include "attributes.h"

namespace tangle {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}
// Quote marks we do not accept: backticks and typographic quotes (UTF-8 lead bytes of “ ” ‘ ’).
bool is_unknown_quote(std::string_view rest) {
  return rest.starts_with("`") || rest.starts_with("\xE2\x80\x9C") ||
         rest.starts_with("\xE2\x80\x9D") || rest.starts_with("\xE2\x80\x98") ||
         rest.starts_with("\xE2\x80\x99");
}

// Reads tokens from the text between the braces, one at a time.
class Reader {
 public:
  explicit Reader(std::string_view body) : body_(body) {}

  std::string run(Attributes& out) {
    while (true) {
      while (pos_ < body_.size() && is_space(body_[pos_])) ++pos_;
      if (pos_ == body_.size()) return "";
      std::string error = token(out);
      if (!error.empty()) return error;
    }
  }

 private:
  std::string token(Attributes& out) {
    char first = body_[pos_];
    if (first == '.') {
      std::string name = word(++pos_);
      if (name.empty()) return "a '.' with no language after it: write the language as .cuda";
      if (out.language.empty()) out.language = name;
      return "";
    }
    if (first == '#') {
      std::string name = word(++pos_);
      if (name.empty()) return "a '#' with no chunk name after it: write the name as #warp-sum";
      for (char c : name)
        if (!is_id_char(c))
          return "chunk name '" + name + "' has a character other than letters, digits and -_.:/+";
      if (out.id) return "two chunk names (#" + *out.id + " and #" + name + "): give a block one";
      out.id = name;
      return "";
    }
    size_t key_start = pos_;
    while (pos_ < body_.size() && is_key_char(body_[pos_])) ++pos_;
    std::string key(body_.substr(key_start, pos_ - key_start));
    if (key.empty() || pos_ == body_.size() || body_[pos_] != '=') {
      std::string bad = word(key_start);
      return "bad token '" + bad +
             "' in the attributes: use .language, #chunk-name and key=value, separated by spaces";
    }
    ++pos_;  // '='
    std::string value;
    if (std::string error = read_value(key, value); !error.empty()) return error;
    if (key == "file") {
      if (out.file) return "two file= attributes: a block tangles to one file";
      out.file = value;
    }
    return "";  // other keys (Entangled's, Pandoc's) are read and left alone
  }

  std::string read_value(const std::string& key, std::string& value) {
    std::string_view rest = body_.substr(pos_);
    if (is_unknown_quote(rest))
      return "the value of " + key +
             "= opens with an unknown quote: quote it with \"...\" or '...'";
    if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
      char quote = rest[0];
      for (++pos_; pos_ < body_.size(); ++pos_) {
        char c = body_[pos_];
        if (c == quote) {
          ++pos_;
          if (pos_ < body_.size() && !is_space(body_[pos_]))
            return "text right after the closing quote of " + key + "=: put a space after it";
          return "";
        }
        if (c == '\\' && quote == '"' && pos_ + 1 < body_.size()) c = body_[++pos_];
        value += c;
      }
      return "the quote opened in " + key + "= is never closed: add the closing " +
             std::string(1, quote);
    }
    value = word(pos_);
    for (char c : value)
      if (c == '"' || c == '\'' || c == '`')
        return "a quote inside the unquoted value of " + key + "=: quote the whole value";
    return "";
  }

  // A run of characters up to a space; advances past it.
  std::string word(size_t start) {
    pos_ = start;
    while (pos_ < body_.size() && !is_space(body_[pos_])) ++pos_;
    return std::string(body_.substr(start, pos_ - start));
  }

  std::string_view body_;
  size_t pos_ = 0;
};

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace

bool is_id_char(char c) { return is_key_char(c) || c == '.' || c == ':' || c == '/' || c == '+'; }

AttributeParse parse_attributes(std::string_view info) {
  AttributeParse parse;
  info = trim(info);
  if (info.empty()) return parse;
  if (info.front() != '{') {
    // A plain fence (```cuda) is an illustration. Catch attributes written without braces.
    parse.attributes.language = std::string(info.substr(0, info.find_first_of(" \t")));
    if (info.find("file=") != std::string_view::npos || info.find(" #") != std::string_view::npos)
      parse.error =
          "attributes must be in braces: write ```{.cuda file=src/...} or ```{.cuda #name}";
    return parse;
  }
  parse.attributes.braced = true;
  // Find the closing brace, skipping braces inside quoted values.
  size_t close = std::string_view::npos;
  char quote = 0;
  for (size_t i = 1; i < info.size() && close == std::string_view::npos; ++i) {
    char c = info[i];
    if (quote) {
      if (c == '\\' && quote == '"')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if ((c == '"' || c == '\'') && info[i - 1] == '=') {
      quote = c;
    } else if (c == '}') {
      close = i;
    }
  }
  if (close == std::string_view::npos) {
    parse.error =
        quote ? std::string("a quoted value in the attributes is never closed: add the closing ") +
                    quote
              : "the attribute list opened with '{' is never closed: end it with '}'";
    return parse;
  }
  if (!trim(info.substr(close + 1)).empty()) {
    parse.error =
        "text after the closing '}' of the attributes: move it inside the braces or remove it";
    return parse;
  }
  parse.error = Reader(info.substr(1, close - 1)).run(parse.attributes);
  if (parse.error.empty() && (parse.attributes.file || parse.attributes.id) &&
      parse.attributes.language.empty())
    parse.error = "a tangled block needs a language: add a class such as .cuda or .cmake";
  return parse;
}

}  // namespace tangle
