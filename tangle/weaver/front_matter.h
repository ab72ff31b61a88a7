// A chapter's YAML front matter, read with the small subset of YAML the chapters use:
// `key: scalar`, `key: [a, b]`, and a block list of `- {k: v, ...}` or `- k: v` items.
// Every node keeps its line, so an unknown symbol or a bad kernel names chapter.md:line.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "diagnostics.h"

namespace weave {

struct Node {
    enum class Kind { scalar, list, map };
    Kind kind = Kind::scalar;
    std::string scalar;
    std::vector<Node> items;                            // list
    std::vector<std::pair<std::string, Node>> fields;   // map, in written order
    int line = 0;

    const Node* find(const std::string& key) const;
};

struct Named {
    std::string name;
    int line = 0;
};

struct KernelPoint {
    std::string name;   // a result key, as written (normalised later)
    std::string flops;  // an expression of numbers, or empty: take the record's `flops`
    std::string bytes;  // likewise, `bytes`
    std::string figure; // empty: the chapter's figure (roofline:ID); else its named figure roofline:ID/NAME
    int line = 0;
};

struct FrontMatter {
    bool present = false;
    Node root;             // a map
    int first_line = 0;    // the opening ---
    int body_line = 1;     // the first line after the closing ---
    std::string id, title, src;
    std::vector<Named> symbols;
    std::vector<KernelPoint> kernels;
};

// Reads the front matter at the top of `lines` (1-based line numbers in diagnostics).
FrontMatter read_front_matter(const std::vector<std::string>& lines, const std::string& file,
                              Diagnostics& diagnostics);

}  // namespace weave
