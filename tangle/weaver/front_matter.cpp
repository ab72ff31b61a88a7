#include "front_matter.h"

#include <cctype>

namespace weave {
namespace {

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Removes a `# comment` that starts outside quotes after whitespace.
std::string strip_comment(const std::string& s) {
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (quote) { if (c == quote) quote = 0; continue; }
        if (c == '"' || c == '\'') quote = c;
        else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) return s.substr(0, i);
    }
    return s;
}

// A parser for one flow value: [a, b], {k: v}, "quoted", 'quoted' or a bare scalar.
class Flow {
public:
    Flow(const std::string& text, int line) : s_(text), line_(line) {}
    std::optional<Node> value(std::string& error) {
        Node n = parse(error);
        skip();
        if (error.empty() && i_ != s_.size()) error = "unexpected text after the value: '" + s_.substr(i_) + "'";
        if (!error.empty()) return std::nullopt;
        return n;
    }

private:
    void skip() { while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_; }
    Node parse(std::string& error, const char* stops = "") {
        skip();
        Node n;
        n.line = line_;
        if (i_ < s_.size() && s_[i_] == '[') return sequence(error);
        if (i_ < s_.size() && s_[i_] == '{') return mapping(error);
        if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'')) {
            char q = s_[i_++];
            while (i_ < s_.size() && s_[i_] != q) {
                if (q == '"' && s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
                n.scalar += s_[i_++];
            }
            if (i_ >= s_.size()) error = "a quoted value has no closing quote";
            else ++i_;
            return n;
        }
        size_t start = i_;
        while (i_ < s_.size() && std::string(stops).find(s_[i_]) == std::string::npos) ++i_;
        n.scalar = trim(s_.substr(start, i_ - start));
        return n;
    }
    Node sequence(std::string& error) {
        Node n;
        n.kind = Node::Kind::list;
        n.line = line_;
        ++i_;
        skip();
        if (i_ < s_.size() && s_[i_] == ']') { ++i_; return n; }
        while (error.empty()) {
            n.items.push_back(parse(error, ",]"));
            skip();
            if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
            if (i_ < s_.size() && s_[i_] == ']') { ++i_; break; }
            error = "a [list] is not closed with ]";
        }
        return n;
    }
    Node mapping(std::string& error) {
        Node n;
        n.kind = Node::Kind::map;
        n.line = line_;
        ++i_;
        skip();
        if (i_ < s_.size() && s_[i_] == '}') { ++i_; return n; }
        while (error.empty()) {
            skip();
            size_t colon = s_.find(':', i_);
            if (colon == std::string::npos) { error = "a {map} entry has no ':'"; break; }
            std::string key = trim(s_.substr(i_, colon - i_));
            i_ = colon + 1;
            n.fields.emplace_back(key, parse(error, ",}"));
            skip();
            if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
            if (i_ < s_.size() && s_[i_] == '}') { ++i_; break; }
            error = "a {map} is not closed with }";
        }
        return n;
    }

    const std::string& s_;
    size_t i_ = 0;
    int line_;
};

size_t indent_of(const std::string& s) { return s.find_first_not_of(' '); }

// Splits "key: rest" (the key outside quotes); false when the line is not a mapping entry.
bool split_entry(const std::string& text, std::string& key, std::string& rest) {
    if (text.empty() || text[0] == '"' || text[0] == '\'' || text[0] == '{' || text[0] == '[') return false;
    size_t colon = text.find(':');
    if (colon == std::string::npos || (colon + 1 < text.size() && text[colon + 1] != ' ')) return false;
    key = trim(text.substr(0, colon));
    rest = trim(text.substr(colon + 1));
    return !key.empty();
}

}  // namespace

const Node* Node::find(const std::string& key) const {
    for (const auto& [k, v] : fields)
        if (k == key) return &v;
    return nullptr;
}

static void read_block(const std::vector<std::string>& lines, size_t& i, size_t end, Node& root,
                       const std::string& file, Diagnostics& diagnostics);

// Picks out the fields the weaver uses: id, title, src, symbols, kernels.
static void interpret(FrontMatter& fm, const std::string& file, Diagnostics& diagnostics) {
    auto text = [&](const char* key) {
        const Node* n = fm.root.find(key);
        if (n && n->kind != Node::Kind::scalar)
            diagnostics.error(file, n->line, std::string("front matter: '") + key + "' must be a plain value");
        return n && n->kind == Node::Kind::scalar ? n->scalar : std::string();
    };
    fm.id = text("id");
    fm.title = text("title");
    fm.src = text("src");
    if (const Node* symbols = fm.root.find("symbols")) {
        if (symbols->kind == Node::Kind::scalar && !symbols->scalar.empty())
            fm.symbols.push_back({symbols->scalar, symbols->line});
        for (const Node& s : symbols->items) {
            if (s.kind == Node::Kind::scalar) fm.symbols.push_back({s.scalar, s.line});
            else diagnostics.error(file, s.line, "front matter: each of 'symbols' must be a name, like B_copy");
        }
    }
    if (const Node* kernels = fm.root.find("kernels")) {
        for (const Node& k : kernels->items) {
            const Node* name = k.find("name");
            if (k.kind != Node::Kind::map || !name || name->scalar.empty()) {
                diagnostics.error(file, k.line,
                                  "front matter: each of 'kernels' needs a name: - {name: \"reduce/v1@2^28\", flops: ..., bytes: ...}");
                continue;
            }
            const Node* flops = k.find("flops");
            const Node* bytes = k.find("bytes");
            const Node* figure = k.find("figure");
            std::string figure_name = figure ? figure->scalar : "";
            if (figure && (figure_name.empty() || figure_name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") !=
                                                      std::string::npos)) {
                diagnostics.error(file, k.line, "front matter: a kernel's 'figure' names one of the chapter's figures in "
                                                "lower-case letters, digits and '-' (figure: rungs, shown by roofline:ID/rungs)");
                figure_name.clear();
            }
            fm.kernels.push_back({name->scalar, flops ? flops->scalar : "", bytes ? bytes->scalar : "", figure_name, k.line});
        }
    }
}

FrontMatter read_front_matter(const std::vector<std::string>& lines, const std::string& file,
                              Diagnostics& diagnostics) {
    FrontMatter fm;
    fm.root.kind = Node::Kind::map;
    if (lines.empty() || trim(lines[0]) != "---") return fm;
    size_t end = 1;
    while (end < lines.size() && trim(lines[end]) != "---" && trim(lines[end]) != "...") ++end;
    if (end == lines.size()) {
        diagnostics.error(file, 1, "the front matter opened here is never closed: end it with a line '---'");
        return fm;
    }
    fm.present = true;
    fm.first_line = 1;
    fm.body_line = static_cast<int>(end) + 2;
    size_t i = 1;
    read_block(lines, i, end, fm.root, file, diagnostics);
    interpret(fm, file, diagnostics);
    return fm;
}

// Reads top-level `key: value` entries; a key with no value takes the indented block below it.
static void read_block(const std::vector<std::string>& lines, size_t& i, size_t end, Node& root,
                       const std::string& file, Diagnostics& diagnostics) {
    auto flow = [&](const std::string& text, int line) {
        std::string error;
        auto node = Flow(text, line).value(error);
        if (!node) diagnostics.error(file, line, "front matter: " + error);
        return node.value_or(Node{});
    };
    while (i < end) {
        std::string text = trim(strip_comment(lines[i]));
        int line = static_cast<int>(i) + 1;
        if (text.empty()) { ++i; continue; }
        std::string key, rest;
        if (indent_of(lines[i]) != 0 || !split_entry(text, key, rest)) {
            diagnostics.error(file, line, "front matter: expected 'key: value' here, found '" + text + "'");
            ++i;
            continue;
        }
        ++i;
        if (!rest.empty()) { root.fields.emplace_back(key, flow(rest, line)); continue; }
        Node list;
        list.kind = Node::Kind::list;
        list.line = line;
        while (i < end) {
            std::string item = trim(strip_comment(lines[i]));
            size_t indent = indent_of(lines[i]);
            if (item.empty()) { ++i; continue; }
            if (indent == 0) break;
            int item_line = static_cast<int>(i) + 1;
            ++i;
            if (item[0] != '-') {
                diagnostics.error(file, item_line, "front matter: expected a list item '- ...' under '" + key + "'");
                continue;
            }
            std::string body = trim(item.substr(1));
            std::string k, v;
            if (!split_entry(body, k, v)) { list.items.push_back(flow(body, item_line)); continue; }
            Node map;  // - name: x, continued by more-indented `key: value` lines
            map.kind = Node::Kind::map;
            map.line = item_line;
            map.fields.emplace_back(k, flow(v, item_line));
            while (i < end && indent_of(lines[i]) > indent && trim(lines[i])[0] != '-') {
                std::string more = trim(strip_comment(lines[i]));
                int more_line = static_cast<int>(i) + 1;
                ++i;
                if (more.empty()) continue;
                if (split_entry(more, k, v)) map.fields.emplace_back(k, flow(v, more_line));
                else diagnostics.error(file, more_line, "front matter: expected 'key: value' in the item");
            }
            list.items.push_back(std::move(map));
        }
        root.fields.emplace_back(key, std::move(list));
    }
}

}  // namespace weave
