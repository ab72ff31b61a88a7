#include "roofline_reference.h"

#include <algorithm>
#include <optional>
#include <regex>

#include "format.h"

namespace weave {
namespace {

// A rung's ladder ("reduce/", "fusion/short") and number; nullopt for a kernel that is no rung.
struct Rung {
  std::string ladder;
  int n = 0;
};

std::optional<Rung> rung_of(const std::string& key) {
  static const std::regex pattern(R"(^([^/]+)/(?:([A-Za-z0-9]+)_)?v([0-9]{1,6})[a-z]*_[^@]*@.+$)");
  std::smatch m;
  if (!std::regex_match(key, m, pattern)) return std::nullopt;
  return Rung{m[1].str() + "/" + m[2].str(), std::stoi(m[3].str())};
}

bool is_peer(const std::string& key) {
  size_t slash = key.find('/');
  return slash != std::string::npos && key.compare(slash + 1, 5, "peer_") == 0;
}

std::string without_size(const std::string& key) { return key.substr(0, key.find('@')); }

// Text the caption shows as it is: Markdown's brackets, emphasis and code marks escaped.
std::string markdown_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string("[]*_`\\").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

const std::vector<PlacedPoint>& points_of(const ReferenceSide& side, const std::string& id) {
  static const std::vector<PlacedPoint> none;
  auto it = side.points.find(id);
  return it == side.points.end() ? none : it->second;
}

// The stale records among the chapters whose points the figure draws, for the caption.
std::string stale_clause(const ReferenceSide& side, const std::vector<PlacedPoint>& points) {
  std::map<std::string, std::string> stale;
  for (const PlacedPoint& p : points)
    if (auto it = side.stale.find(p.chapter); it != side.stale.end()) stale.insert(*it);
  if (stale.empty()) return "";
  if (stale.size() == 1)
    return "; its record of chapter " + stale.begin()->first + " is stale, measured on " +
           stale.begin()->second.substr(0, 10) + " with older code";
  std::string list;
  size_t i = 0;
  for (const auto& [chapter, date] : stale)
    list += std::string(i++ == 0            ? ""
                        : i == stale.size() ? " and "
                                            : ", ") +
            chapter + " (" + date.substr(0, 10) + ")";
  return "; its records of chapters " + list + " are stale, measured with older code";
}

}  // namespace

std::vector<KernelResult> last_rungs(const std::vector<KernelResult>& kernels) {
  std::map<std::string, int> top;           // ladder -> its highest rung
  std::map<std::string, size_t> last_size;  // a kernel that is no rung -> its last entry
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string& key = kernels[i].name;
    if (is_peer(key)) continue;
    if (auto rung = rung_of(key)) {
      auto [it, fresh] = top.emplace(rung->ladder, rung->n);
      if (!fresh) it->second = std::max(it->second, rung->n);
    } else {
      last_size[without_size(key)] = i;
    }
  }
  std::vector<KernelResult> out;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string& key = kernels[i].name;
    if (is_peer(key)) continue;
    auto rung = rung_of(key);
    if (rung ? top[rung->ladder] == rung->n : last_size[without_size(key)] == i)
      out.push_back(kernels[i]);
  }
  return out;
}

ReferenceSide reference_side(const std::vector<RooflineChapter>& chapters,
                             const std::map<std::string, std::vector<PlacedPoint>>& woven,
                             const MeasurementStore& reference, const MeasurementStore& store) {
  ReferenceSide side;
  side.woven_gpu = store.machine->gpu;
  side.gpu = reference.machine->gpu;
  side.slug = reference.slug;
  side.roofs = read_roofs(reference);
  const Roofs& roofs = side.roofs;
  for (const auto& [id, record] : reference.records)
    if (record.stale) side.stale[id] = record.date;
  // Numbered as this GPU's marker of the same kernel (in the book's figure: of the same chapter).
  auto number = [&](const std::string& figure, PlacedPoint& p) {
    p.number = 0;
    if (auto it = woven.find(figure); it != woven.end())
      for (const PlacedPoint& o : it->second)
        if (o.name == p.name && o.chapter == p.chapter) p.number = o.number;
  };
  for (const RooflineChapter& c : chapters) {
    for (const std::string& figure : c.figures) {
      std::vector<KernelResult> kernels;
      for (const KernelResult& k : c.kernels)
        if (k.figure == figure) kernels.push_back(k);
      auto placed = place_points(c.id, last_rungs(kernels), roofs);
      for (PlacedPoint& p : placed) number(figure, p);
      side.points[figure] = placed;
    }
    auto in_book = place_points(c.id, last_rungs(book_kernels(c)), roofs);
    for (PlacedPoint& p : in_book) number("book", p);
    auto& book = side.points["book"];
    book.insert(book.end(), in_book.begin(), in_book.end());
  }
  return side;
}

std::string reference_caption(const ReferenceSide& side, const std::string& id, bool levels) {
  static const std::vector<PlacedPoint> none;
  const std::vector<PlacedPoint>& points = levels ? none : points_of(side, id);
  std::string drawn = points.empty() ? "its measured roofs"
                                     : "its measured roofs and the last rung of each ladder (◇, "
                                       "joined to this GPU's marker of the same kernel)";
  return "Solid: this GPU, " + markdown_text(side.woven_gpu) +
         "; faint and dashed: the reference GPU, " + markdown_text(side.gpu) + ", " + drawn +
         stale_clause(side, points) + ".";
}

std::string reference_alt(const ReferenceSide& side, const std::string& id,
                          const FigureRange& range) {
  std::string roofs = roofs_in_range(range, side.roofs, false, true);
  std::string out = "Drawn for " + side.woven_gpu +
                    ". Beside it, faint and dashed, the reference GPU " + side.gpu +
                    "'s measured roofs" + (roofs.empty() ? "" : ": " + roofs);
  const std::vector<PlacedPoint>& points = points_of(side, id);
  if (points.empty()) return out + ".";
  out += "; and its last rungs as hollow diamonds: ";
  for (size_t i = 0; i < points.size(); ++i) {
    const PlacedPoint& p = points[i];
    out += std::string(i == 0 ? "" : "; ") + (p.number ? std::to_string(p.number) + " " : "") +
           (id == "book" || p.chapter != id.substr(0, id.find('-')) ? p.chapter + " " : "") +
           p.label + " at " + significant(p.intensity, 3) + " FLOP/B and " +
           with_unit(p.rate, units::flops_per_s) + ", " + percent(p.rate / p.attainable) + " of " +
           roof_text(p.roof, false);
  }
  return out + ".";
}

std::string reference_levels_alt(const ReferenceSide& side) {
  std::string roofs;
  for (const char* c : {"read_bandwidth", "copy_bandwidth", "l2_bandwidth", "shared_bandwidth"})
    if (side.roofs.count(c))
      roofs += (roofs.empty() ? "" : ", ") + roof_text(c, false) + " " +
               with_unit(side.roofs.at(c), units::bytes_per_s);
  return "Drawn for " + side.woven_gpu + ". Beside it, faint and dashed, the reference GPU " +
         side.gpu + "'s measured roofs" + (roofs.empty() ? "" : ": " + roofs) + ".";
}

}  // namespace weave
