#include "references.h"

#include <set>

#include "reference.h"

namespace tangle {

namespace {

// "a -> b -> a"; a cycle through more than a dozen chunks as its first and last five, with the
// count between (tools.md P8: one through 100 000 chunks was a single 700 KB line).
std::string shown_chain(const std::vector<std::string>& cycle) {
  constexpr size_t kEnds = 5;
  std::string chain;
  for (size_t i = 0; i < cycle.size(); ++i) {
    if (cycle.size() > 12 && i == kEnds) {
      chain += "... " + std::to_string(cycle.size() - 2 * kEnds) + " more chunks ... -> ";
      i = cycle.size() - kEnds;
    }
    chain += cycle[i] + (i + 1 < cycle.size() ? " -> " : "");
  }
  return chain;
}

struct Edge {
  std::string target;
  const Block* block;  // the block that holds the reference
  int line;            // the reference's line in the chapter
};

std::vector<Edge> references_in(const Block& block) {
  std::vector<Edge> edges;
  for (size_t i = 0; i < block.lines.size(); ++i)
    if (auto reference = parse_reference(block.lines[i]))
      edges.push_back({reference->id, &block, block.fence_line + 1 + static_cast<int>(i)});
  return edges;
}

// Depth-first search without recursion (a book may chain thousands of chunks); reports each back
// edge as a cycle, naming the chain of chunks from the one it returns to.
void find_cycles(const std::map<std::string, std::vector<Edge>>& graph, Diagnostics& diagnostics) {
  enum class Colour { white, grey, black };
  std::map<std::string, Colour> colour;
  for (const auto& [id, edges] : graph) colour[id] = Colour::white;
  for (const auto& [root, root_edges] : graph) {
    if (colour[root] != Colour::white) continue;
    std::vector<std::pair<std::string, size_t>> stack{{root, 0}};  // chunk, next edge to follow
    colour[root] = Colour::grey;
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      const std::vector<Edge>& edges = graph.at(id);
      if (next == edges.size()) {
        colour[id] = Colour::black;
        stack.pop_back();
        continue;
      }
      const Edge& edge = edges[next++];
      auto target = colour.find(edge.target);
      if (target == colour.end()) continue;  // a missing chunk, reported elsewhere
      if (target->second == Colour::white) {
        target->second = Colour::grey;
        stack.emplace_back(edge.target, 0);
      } else if (target->second == Colour::grey) {
        std::vector<std::string> cycle;
        bool in_cycle = false;
        for (const auto& [on_stack, unused] : stack) {
          in_cycle = in_cycle || on_stack == edge.target;
          if (in_cycle) cycle.push_back(on_stack);
        }
        cycle.push_back(edge.target);
        const std::string chain = shown_chain(cycle);
        diagnostics.push_back({edge.block->chapter, edge.line,
                               "the chunks include each other in a cycle (" + chain +
                                   "): remove one of these references"});
      }
    }
  }
}

}  // namespace

void check_references(const BookIndex& index, Diagnostics& diagnostics) {
  std::map<std::string, std::vector<Edge>> graph;
  std::vector<Edge> all_edges;
  for (const auto& [id, blocks] : index.chunks) {
    std::vector<Edge>& edges = graph[id];
    for (const Block* block : blocks)
      for (Edge& edge : references_in(*block)) edges.push_back(edge);
    all_edges.insert(all_edges.end(), edges.begin(), edges.end());
  }
  for (const auto& [path, blocks] : index.files)
    for (const Block* block : blocks)
      for (Edge& edge : references_in(*block)) all_edges.push_back(edge);
  for (const Block* block : index.rejected)
    for (Edge& edge : references_in(*block)) all_edges.push_back(edge);

  std::set<std::string> referenced;
  for (const Edge& edge : all_edges) {
    referenced.insert(edge.target);
    if (!index.chunks.contains(edge.target))
      diagnostics.push_back({edge.block->chapter, edge.line,
                             "<<" + edge.target + ">> names no chunk: define a block {." +
                                 edge.block->language + " #" + edge.target +
                                 "} or correct the name"});
  }
  find_cycles(graph, diagnostics);
  for (const auto& [id, blocks] : index.chunks)
    if (!referenced.contains(id))
      diagnostics.push_back({blocks.front()->chapter, blocks.front()->fence_line,
                             "chunk #" + id + " is never used: include it with <<" + id +
                                 ">> in a block that is tangled, or remove the #" + id +
                                 " so it is an illustration"});
}

}  // namespace tangle
