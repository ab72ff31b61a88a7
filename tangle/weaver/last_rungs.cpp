#include "last_rungs.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace weave {
namespace {

struct LadderStep {
  int n = 0;
  std::string args, key;
};

double problem_size(const std::string& args) {
  double product = 1;
  size_t start = 0;
  while (start <= args.size()) {
    size_t end = args.find('x', start);
    if (end == std::string::npos) end = args.size();
    const std::string part = args.substr(start, end - start);
    if (!part.empty() && part.find_first_not_of("0123456789") == std::string::npos)
      product *= std::max(std::strtod(part.c_str(), nullptr), 1.0);  // no throw past a double
    start = end + 1;
  }
  return product;
}

int flags_set(const std::string& args) {
  int flags = 0;
  size_t start = 0;
  while (start <= args.size()) {
    size_t end = args.find('x', start);
    if (end == std::string::npos) end = args.size();
    flags += args.compare(start, end - start, "1") == 0;
    start = end + 1;
  }
  return flags;
}

// A key's parts: <src>/<name>@<args>, name without '@'; false for any other shape.
bool split_key(const std::string& key, std::string& name, std::string& args) {
  const size_t slash = key.find('/');
  if (slash == 0 || slash == std::string::npos) return false;
  const size_t at = key.find('@', slash);
  if (at == std::string::npos || at + 1 == key.size()) return false;
  name = key.substr(slash + 1, at - slash - 1);
  args = key.substr(at + 1);
  return true;
}

// "v5_vector_ilp" -> ("", 5); "short_v4_fused" -> ("short", 4): [<ladder>_]v<N>_<name>, the
// ladder letters and digits; false for a name of no rung.
bool ladder_step_of(const std::string& name, std::string& ladder, int& n) {
  auto numbered = [&](size_t v) {  // v<N>_ at v, N under nine digits
    if (v >= name.size() || name[v] != 'v') return false;
    const size_t end = name.find_first_not_of("0123456789", v + 1);
    if (end == v + 1 || end == std::string::npos || name[end] != '_' || end - v - 1 > 8)
      return false;
    n = std::atoi(name.c_str() + v + 1);
    return true;
  };
  const size_t underscore = name.find('_');
  if (underscore != std::string::npos && underscore > 0 &&
      name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
          underscore &&
      numbered(underscore + 1)) {
    ladder = name.substr(0, underscore);
    return true;
  }
  ladder.clear();
  return numbered(0);
}

bool timed(const Record& record, const std::string& key) {
  auto it = record.results.find(key);
  return it != record.results.end() && it->second.count("time");
}

}  // namespace

std::vector<std::string> last_rungs_and_peers(const Record& record) {
  std::map<std::string, std::vector<LadderStep>> ladders;  // "<src>/<ladder>" -> its rungs
  std::map<std::string, std::vector<std::string>> peers;   // "<src>/<args>" -> timed peers
  for (const auto& [key, quantities] : record.results) {
    std::string name, args, ladder;
    int n = 0;
    if (!split_key(key, name, args)) continue;
    if (name.starts_with("peer_")) {
      if (quantities.count("time")) peers[key.substr(0, key.find('/') + 1) + args].push_back(key);
    } else if (ladder_step_of(name, ladder, n)) {
      ladders[key.substr(0, key.find('/') + 1) + ladder].push_back({n, args, key});
    }
  }
  std::vector<std::string> keys;
  for (auto& [ladder, rungs] : ladders) {
    int last = 0;
    for (const LadderStep& r : rungs) last = std::max(last, r.n);
    std::vector<LadderStep> top;
    for (const LadderStep& r : rungs)
      if (r.n == last) top.push_back(r);
    std::stable_sort(top.begin(), top.end(), [](const LadderStep& a, const LadderStep& b) {
      const double sa = problem_size(a.args), sb = problem_size(b.args);
      return sa != sb ? sa > sb : flags_set(a.args) < flags_set(b.args);
    });
    bool paired = false;
    for (const LadderStep& r : top) {
      auto p = peers.find(r.key.substr(0, r.key.find('/') + 1) + r.args);
      if (p == peers.end() || !timed(record, r.key)) continue;
      keys.push_back(r.key);
      keys.insert(keys.end(), p->second.begin(), p->second.end());
      paired = true;
      break;
    }
    if (!paired && timed(record, top.front().key)) keys.push_back(top.front().key);
  }
  // every other peer at its largest size: the library's or the machine's mark for the chapter
  std::map<std::string, std::pair<double, std::string>> largest;  // "<src>/peer_<what>" -> key
  for (const auto& [where, keys_there] : peers)
    for (const std::string& key : keys_there) {
      const size_t at = key.find('@', key.find('/'));
      const double size = problem_size(key.substr(at + 1));
      auto [it, fresh] = largest.emplace(key.substr(0, at), std::make_pair(size, key));
      if (!fresh && size > it->second.first) it->second = {size, key};
    }
  for (const auto& [name, sized] : largest) {
    const std::string& peer_key = sized.second;
    if (std::find(keys.begin(), keys.end(), peer_key) != keys.end()) continue;
    // a chapter without a ladder (1.1, 2.1): its results on the peer's problem, beside it
    if (ladders.empty()) {
      const std::string args = peer_key.substr(peer_key.find('@', peer_key.find('/')));
      const std::string src = peer_key.substr(0, peer_key.find('/') + 1);
      for (const auto& [key, quantities] : record.results)
        if (key.starts_with(src) && key.ends_with(args) && quantities.count("time") &&
            key.compare(src.size(), 5, "peer_") != 0 &&
            key.find('@', src.size()) == key.size() - args.size() &&
            std::find(keys.begin(), keys.end(), key) == keys.end())
          keys.push_back(key);
    }
    keys.push_back(peer_key);
  }
  return keys;
}

}  // namespace weave
