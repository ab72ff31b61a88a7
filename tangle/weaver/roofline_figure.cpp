#include "roofline_figure.h"

#include <algorithm>

#include "format.h"
#include "roofline_reference.h"

namespace weave {
namespace {

struct RoofName {
  const char* ceiling;
  const char* plain;  // for alt text
  const char* math;   // for the page
};
constexpr RoofName kRoofNames[] = {{"dram_theoretical", "B_dram", "$B_\\text{dram}$"},
                                   {"read_bandwidth", "B_read", "$B_\\text{read}$"},
                                   {"copy_bandwidth", "B_copy", "$B_\\text{copy}$"},
                                   {"l2_bandwidth", "B_L2", "$B_\\text{L2}$"},
                                   {"shared_bandwidth", "B_smem", "$B_\\text{smem}$"},
                                   {"fp32_fma_rate", "F_fp32", "$F_\\text{fp32}$"},
                                   {"bf16_tensor_rate", "F_bf16", "$F_\\text{bf16}$"}};

// "2.44 T": the unit is in the column's head, so a phone's narrow table keeps only the prefix.
std::string prefixed(double rate) {
  std::string text = with_unit(rate, units::flops_per_s);
  size_t unit = text.rfind("FLOP/s");
  return unit == std::string::npos ? text : text.substr(0, unit);
}

// "268435456" -> "2^28"; other sizes ("4096x4096x4096") as they are. figures/roofline.py agrees.
std::string power_of_two(const std::string& size) {
  if (size.empty() || size.size() > 19 || size.find_first_not_of("0123456789") != std::string::npos)
    return size;
  unsigned long long n = std::stoull(size);
  if (n < 2 || (n & (n - 1)) != 0) return size;
  int bits = 0;
  while (n >>= 1) ++bits;
  return "2^" + std::to_string(bits);
}

std::string short_label(const std::string& key) {
  std::string name = key.substr(0, key.find('@'));
  return name.substr(name.rfind('/') + 1);
}

// Attribute values are in double quotes: a quote inside becomes a single one.
std::string attribute(std::string text) {
  std::replace(text.begin(), text.end(), '"', '\'');
  return text;
}

// "N kernels sit left of the ridge, measured against B_copy, from 21% (v1_naive) to 97%
// (v7_last_block) of it": one clause per roof that bounds some kernel.
std::string where_they_sit(const std::vector<PlacedPoint>& points) {
  std::map<std::string, std::vector<const PlacedPoint*>> by_roof;
  for (const PlacedPoint& p : points) by_roof[p.roof].push_back(&p);
  std::string out;
  for (auto& [roof, group] : by_roof) {
    auto [low, high] = std::minmax_element(
        group.begin(), group.end(), [](const PlacedPoint* a, const PlacedPoint* b) {
          return a->rate / a->attainable < b->rate / b->attainable;
        });
    std::string side = roof.find("rate") != std::string::npos
                           ? "right of the ridge, measured against "
                           : "left of the ridge, measured against ";
    std::string count =
        group.size() == 1 ? "1 kernel sits " : std::to_string(group.size()) + " kernels sit ";
    out += (out.empty() ? "" : "; ") + count + side + roof_text(roof, false);
    if (group.size() == 1)
      out +=
          ", at " + percent((*low)->rate / (*low)->attainable) + " of it (" + (*low)->label + ")";
    else
      out += ", from " + percent((*low)->rate / (*low)->attainable) + " (" + (*low)->label +
             ") to " + percent((*high)->rate / (*high)->attainable) + " (" + (*high)->label +
             ") of it";
    int above = static_cast<int>(std::count_if(
        group.begin(), group.end(), [](const PlacedPoint* p) { return p->rate > p->attainable; }));
    if (above) out += " (" + std::to_string(above) + " above it)";
  }
  return out;
}

// What a figure shows, for alt text: "chapter 3.1", or "chapter 4.1's figure rungs" for a named
// one.
std::string figure_name(const std::string& id) {
  size_t dash = id.find('-');
  if (dash == std::string::npos) return "chapter " + id;
  return "chapter " + id.substr(0, dash) + "'s figure " + id.substr(dash + 1);
}

std::string placement_sentence(const std::vector<PlacedPoint>& points) {
  size_t counted =
      std::count_if(points.begin(), points.end(), [](const PlacedPoint& p) { return p.counted; });
  if (counted == points.size()) return "Placed by DRAM bytes counted by ncu.";
  if (counted == 0)
    return "Hollow markers: placed by the chapter's model bytes (no DRAM count recorded).";
  return "Filled markers: placed by DRAM bytes counted by ncu; hollow: by the chapter's model "
         "bytes (no count recorded).";
}

std::string alt_text(const std::string& id, const std::vector<PlacedPoint>& points,
                     const Roofs& roofs, const FigureRange& range) {
  size_t counted =
      std::count_if(points.begin(), points.end(), [](const PlacedPoint& p) { return p.counted; });
  std::string whose = id == "book"                        ? "every chapter's"
                      : id.find('-') == std::string::npos ? figure_name(id) + "'s"
                                                          : figure_name(id) + ", its";
  std::string basis = counted == points.size() ? "by DRAM bytes counted by ncu"
                      : counted == 0 ? "by the chapter's model bytes, no DRAM count recorded"
                                     : std::to_string(counted) + " by DRAM bytes counted by ncu, " +
                                           std::to_string(points.size() - counted) +
                                           " by the chapter's model bytes";
  return "Log-log roofline of " + whose + " " + std::to_string(points.size()) +
         " measured kernels as numbered markers: achieved FLOP/s against FLOP per DRAM byte "
         "(placed " +
         basis + "). Roofs drawn: " + roofs_in_range(range, roofs, false) + ". " +
         where_they_sit(points) + ".";
}

// The chapter a figure ID belongs to: "4.1-rungs" -> "4.1" (chapter ids hold no '-').
std::string chapter_of_figure(const std::string& id) { return id.substr(0, id.find('-')); }

std::string key_table(const std::vector<PlacedPoint>& points, const std::string& id) {
  const bool book = id == "book";
  std::string out =
      "::: {.roofline-key}\n| # | kernel | FLOP/B | FLOP/s | of roof |\n|--:|:--|--:|--:|:--|\n";
  bool hollow = false;
  for (const PlacedPoint& p : points) {
    hollow = hollow || !p.counted;
    bool prefixed_by_chapter = book || p.chapter != chapter_of_figure(id);
    out += "| " + std::to_string(p.number) + " | " + (prefixed_by_chapter ? p.chapter + " " : "") +
           "`" + p.label + "` | " + significant(p.intensity, 3) + (p.counted ? "" : " ○") + " | " +
           prefixed(p.rate) + " | " + percent(p.rate / p.attainable) + " " +
           roof_text(p.roof, true) + " |\n";
  }
  out += "\n";
  if (hollow) out += "○ placed by the chapter's model bytes: ncu counted no DRAM bytes for it. ";
  out += "FLOP/B: the chapter's FLOPs per DRAM byte";
  out += std::string(hollow ? " (counted by ncu unless marked ○)" : ", counted by ncu") +
         "; of roof: achieved FLOP/s over the lower roof at that intensity.\n:::\n";
  return out;
}

// A named figure's table: each kernel's bytes as its chapter's model counts them beside the bytes
// ncu counted at DRAM, L2 and L1, and the ratio of the DRAM count to the model.
std::string bytes_table(const std::vector<PlacedPoint>& points, const std::string& id) {
  auto bytes = [](const std::optional<double>& v) {
    return v ? with_unit(*v, units::bytes) : std::string("–");
  };
  std::string out =
      "::: {.roofline-bytes}\n| # | kernel | model bytes | DRAM | DRAM / model | L2 | L1 "
      "global/local | shared ≤ |\n|--:|:--|--:|--:|--:|--:|--:|--:|\n";
  bool unseen = false;
  for (const PlacedPoint& p : points) {
    bool prefixed_by_chapter = p.chapter != chapter_of_figure(id);
    std::string model = p.model_bytes > 0 ? with_unit(p.model_bytes, units::bytes) : "–";
    std::string ratio = p.model_bytes > 0 && p.dram_bytes
                            ? significant(*p.dram_bytes / p.model_bytes, 3) + "×"
                            : "–";
    std::string mark = p.unseen_bytes ? " †" : "";
    unseen = unseen || p.unseen_bytes;
    out += "| " + std::to_string(p.number) + " | " + (prefixed_by_chapter ? p.chapter + " " : "") +
           "`" + p.label + "` | " + model + " | " + bytes(p.dram_bytes) + " | " + ratio + " | " +
           bytes(p.l2_bytes) + " | " + bytes(p.l1_bytes) + mark + " | " + bytes(p.shared_bytes) +
           mark + " |\n";
  }
  out +=
      "\nModel bytes: the least its chapter's model says the kernel must move (front matter or "
      "record); "
      "DRAM, L2, L1 and shared: counted by ncu over one cold-cache run (– where nothing was "
      "counted); L1: global and local bytes only; shared: 128 B for each wavefront of the "
      "shared pipe, an upper bound.";
  if (unseen)
    out +=
        " † Part of its traffic passes neither counter: its L2 bytes exceed its L1 and shared "
        "bytes together (TMA copies, `wgmma`'s reads of shared memory).";
  out += "\n:::\n";
  return out;
}

// "4 `v3_persistent`, 5 `v4_cluster` and 6 `v6_tma_store`": kernels by marker number and label
// (plain, for alt text: without the backticks).
std::string numbered(const std::vector<const PlacedPoint*>& points, bool plain) {
  std::string quote = plain ? "" : "`";
  std::string out;
  for (size_t i = 0; i < points.size(); ++i)
    out += std::string(i == 0                   ? ""
                       : i + 1 == points.size() ? " and "
                                                : ", ") +
           std::to_string(points[i]->number) + " " + quote + points[i]->label + quote;
  return out;
}

// The kernels of the levels figure whose L1 and shared levels are left out, and why.
std::string unseen_sentence(const std::vector<PlacedPoint>& points, bool plain) {
  std::vector<const PlacedPoint*> unseen;
  for (const PlacedPoint& p : points)
    if (p.l2_intensity && p.unseen_bytes) unseen.push_back(&p);
  if (unseen.empty()) return "";
  auto share = [](const PlacedPoint* p) { return *p->unseen_bytes / *p->l2_bytes; };
  auto [low, high] = std::minmax_element(
      unseen.begin(), unseen.end(),
      [&](const PlacedPoint* a, const PlacedPoint* b) { return share(a) < share(b); });
  bool one = unseen.size() == 1;
  std::string kernels = (one ? "Kernel " : "Kernels ") + numbered(unseen, plain);
  if (plain)
    return " " + kernels + (one ? " has" : " have") +
           " no L1 or shared point: the counters miss TMA and wgmma traffic.";
  std::string how_much = one ? percent(share(*low)) + " of the bytes it exchanged with L2"
                             : "from " + percent(share(*low)) + " to " + percent(share(*high)) +
                                   " of the bytes each exchanged with L2";
  return " " + kernels + (one ? " has" : " have") + " no triangle or diamond: " + how_much +
         " passed neither the L1's tag stage nor the shared pipe's counters. TMA copies pass "
         "neither, and `wgmma`'s reads of shared memory are not counted either.";
}

std::string levels_figure(const std::string& id, const std::vector<PlacedPoint>& points,
                          const Roofs& roofs, const ReferenceSide* reference) {
  size_t with_levels = std::count_if(points.begin(), points.end(),
                                     [](const PlacedPoint& p) { return p.l2_intensity; });
  std::string dram, dram_math;  // the DRAM roofs, for the alt text and for the caption
  for (const char* c : {"dram_theoretical", "read_bandwidth", "copy_bandwidth"})
    if (roofs.count(c)) {
      dram += (dram.empty() ? "" : ", ") + roof_text(c, false);
      dram_math += (dram_math.empty() ? "" : ", ") + roof_text(c, true);
    }
  std::string list = dram.empty() ? "" : dram + " (DRAM)",
              math = dram.empty() ? "" : dram_math + " for DRAM";
  if (roofs.count("l2_bandwidth")) {
    list += std::string(list.empty() ? "" : ", ") + "B_L2 (L2, measured)";
    math += std::string(math.empty() ? "" : "; ") +
            "$B_\\text{L2}$ for L2, appendix A's measured L2 bandwidth";
  }
  if (roofs.count("shared_bandwidth")) {
    list += std::string(list.empty() ? "" : ", ") + "B_smem (L1 and shared)";
    math += std::string(math.empty() ? "" : "; ") +
            "$B_\\text{smem}$ for triangles and diamonds both, since global, local and shared "
            "bytes pass the L1's one data path";
  }
  std::string caption =
      "The same kernels at each level of the memory hierarchy: for every kernel with an L2 "
      "count, its FLOP per DRAM byte (circle), per L2 byte (square), per global or local byte "
      "through L1 (triangle: `l1tex__t_bytes`, which counts no shared memory) and per "
      "shared-memory byte (diamond: 128 B for each wavefront of the LSU's shared pipe, at most "
      "the bytes it moved and exactly the pipe's work at the 128 B per clock that "
      "$B_\\text{smem}$ measures), joined at its achieved FLOP/s. Roofs: " +
      math + "." + unseen_sentence(points, false);
  if (reference) caption += " " + reference_caption(*reference, id, true);
  std::string alt =
      "Hierarchical roofline of " + std::string(id == "book" ? "the book" : figure_name(id)) +
      ", log-log, numbered as in the table above: for each of " + std::to_string(with_levels) +
      " kernels up to four points at the same FLOP/s, "
      "per DRAM, L2, global or local (L1) and shared-memory byte, with the roofs " +
      list + "." + unseen_sentence(points, true);
  if (reference) alt += " " + reference_levels_alt(*reference);
  std::string base = id == "book" ? "roofline-book" : "roofline-" + id;
  return "![" + caption + "](figures/" + base + "-levels.svg){alt=\"" + attribute(alt) + "\"}\n";
}

}  // namespace

std::string with_unit(double value, const Unit& unit) {
  std::string error;
  return format_value(value, unit, "", 3, error).value_or(significant(value, 3));
}

std::string roof_text(const std::string& ceiling, bool math) {
  for (const RoofName& r : kRoofNames)
    if (ceiling == r.ceiling) return math ? r.math : r.plain;
  return ceiling;
}

std::string percent(double fraction) {
  return (fraction >= 0.995 ? std::to_string(static_cast<long>(100 * fraction + 0.5))
                            : significant(100 * fraction, 2, true)) +
         "%";
}

FigureRange figure_range(const std::vector<PlacedPoint>& points, const Roofs& roofs,
                         const std::vector<PlacedPoint>* reference_points,
                         const Roofs* reference_roofs) {
  FigureRange r;
  auto fit = [&r](const std::vector<PlacedPoint>& pts, const Roofs& under) {
    auto get = [&](const char* c) { return under.count(c) ? under.at(c) : 0.0; };
    double best = std::max({get("dram_theoretical"), get("read_bandwidth"), get("copy_bandwidth")});
    double top_compute = std::max(get("fp32_fma_rate"), get("bf16_tensor_rate"));
    for (const PlacedPoint& p : pts) {
      r.lo_x = r.lo_x == 0 ? p.intensity : std::min(r.lo_x, p.intensity);
      r.hi_x = std::max(r.hi_x, p.intensity);
      r.lo_y = r.lo_y == 0 ? p.rate : std::min(r.lo_y, p.rate);
      r.hi_y = std::max({r.hi_y, p.rate, std::min(best * p.intensity, top_compute)});
    }
  };
  fit(points, roofs);
  if (reference_points && reference_roofs) fit(*reference_points, *reference_roofs);
  r.lo_x /= 3, r.hi_x *= 3, r.lo_y /= 3, r.hi_y *= 2.5;
  return r;
}

std::string roofs_in_range(const FigureRange& range, const Roofs& roofs, bool math,
                           bool measured_only) {
  auto get = [&](const char* c) { return roofs.count(c) ? roofs.at(c) : 0.0; };
  double lowest = 0;
  for (const char* c : {"dram_theoretical", "read_bandwidth", "copy_bandwidth"})
    if (get(c) > 0 && (lowest == 0 || get(c) < lowest)) lowest = get(c);
  std::string out;
  for (const RoofName& r : kRoofNames) {
    std::string c = r.ceiling;
    if (!roofs.count(c) || c == "l2_bandwidth" || c == "shared_bandwidth") continue;
    if (measured_only && c == "dram_theoretical") continue;
    double v = roofs.at(c);
    bool rate = c.find("rate") != std::string::npos;
    bool shown = rate ? v <= range.hi_y && lowest > 0 && v / lowest <= range.hi_x
                      : v * range.hi_x >= range.lo_y && v * range.lo_x <= range.hi_y;
    if (!shown) continue;
    out += (out.empty() ? "" : ", ") + roof_text(c, math) + " " +
           with_unit(v, rate ? units::flops_per_s : units::bytes_per_s) +
           (c == "dram_theoretical" ? " (theoretical)" : "");
  }
  return out;
}

std::string memory_roof(const Roofs& roofs) {
  auto read = roofs.find("read_bandwidth"), copy = roofs.find("copy_bandwidth");
  if (read != roofs.end() && (copy == roofs.end() || read->second > copy->second))
    return "read_bandwidth";
  return copy != roofs.end() ? "copy_bandwidth" : "dram_theoretical";
}

std::vector<PlacedPoint> place_points(const std::string& chapter,
                                      const std::vector<KernelResult>& kernels, const Roofs& roofs,
                                      int first) {
  std::vector<PlacedPoint> out;
  std::map<std::string, int> names;
  for (const KernelResult& k : kernels) names[short_label(k.name)]++;
  std::string memory = memory_roof(roofs);
  for (const KernelResult& k : kernels) {
    double model_bytes = k.bytes.value_or(0);
    bool counted = k.dram_bytes && *k.dram_bytes > 0;
    if (!k.measured() || k.time.number <= 0 || !k.flops || *k.flops <= 0 ||
        (!counted && model_bytes <= 0))
      continue;
    PlacedPoint p;
    p.number = first + static_cast<int>(out.size());
    p.chapter = k.borrowed(chapter) ? k.owner : chapter;
    p.name = k.name;
    p.label = short_label(k.name);
    if (names[p.label] > 1 && k.name.find('@') != std::string::npos)
      p.label += "@" + power_of_two(k.name.substr(k.name.find('@') + 1));
    p.model_bytes = model_bytes;
    p.dram_bytes = k.dram_bytes;
    p.l2_bytes = k.l2_bytes;
    p.l1_bytes = k.l1_bytes;
    p.flops = *k.flops;
    p.rate = *k.flops / k.time.number;
    p.counted = counted;
    p.intensity = *k.flops / (counted ? *k.dram_bytes : model_bytes);
    if (k.l2_bytes && *k.l2_bytes > 0) p.l2_intensity = *k.flops / *k.l2_bytes;
    if (k.l1_bytes && *k.l1_bytes > 0) p.l1_intensity = *k.flops / *k.l1_bytes;
    if (k.shared_wavefronts) p.shared_bytes = kSharedBytesPerWavefront * *k.shared_wavefronts;
    if (p.shared_bytes && *p.shared_bytes > 0) p.shared_intensity = *k.flops / *p.shared_bytes;
    if (k.l2_bytes && k.l1_bytes && k.shared_wavefronts) {
      double unseen = *k.l2_bytes - *k.l1_bytes - p.shared_bytes.value_or(0);
      if (unseen > kUnseenShare * *k.l2_bytes) p.unseen_bytes = unseen;
    }
    // The compute roof: tensor cores where ncu counted tensor work, or where no count exists and
    // the kernel ran faster than the FP32 cores can (it cannot have been FP32 FMAs alone).
    std::string compute = "fp32_fma_rate";
    bool tensor = k.tensor_flops
                      ? *k.tensor_flops > 0
                      : roofs.count("fp32_fma_rate") && p.rate > roofs.at("fp32_fma_rate");
    if (tensor && roofs.count("bf16_tensor_rate")) compute = "bf16_tensor_rate";
    double slope = roofs.count(memory) ? roofs.at(memory) * p.intensity : 0;
    double flat = roofs.count(compute) ? roofs.at(compute) : slope;
    p.roof = slope > 0 && slope < flat ? memory : compute;
    p.attainable = std::min(slope > 0 ? slope : flat, flat);
    if (p.attainable <= 0) continue;
    out.push_back(p);
  }
  return out;
}

bool has_levels(const std::vector<PlacedPoint>& points) {
  return std::any_of(points.begin(), points.end(),
                     [](const PlacedPoint& p) { return p.l2_intensity.has_value(); });
}

std::string annotate_figures(const std::string& markdown,
                             const std::map<std::string, std::vector<PlacedPoint>>& points,
                             const Roofs& roofs, const ReferenceSide* reference) {
  std::string out;
  size_t at = 0;
  const std::string open = "](figures/roofline-";
  while (true) {
    size_t hit = markdown.find(open, at);
    if (hit == std::string::npos) break;
    size_t close = markdown.find(".svg)", hit);
    size_t image = markdown.rfind("![", hit);
    if (close == std::string::npos || image == std::string::npos ||
        markdown.find('\n', image) < hit) {
      out += markdown.substr(at, hit + open.size() - at);
      at = hit + open.size();
      continue;
    }
    std::string id = markdown.substr(hit + open.size(), close - hit - open.size());
    auto it = points.find(id);
    if (it == points.end() || it->second.empty()) {
      out += markdown.substr(at, close + 5 - at);
      at = close + 5;
      continue;
    }
    std::string caption = markdown.substr(image + 2, hit - image - 2);
    std::string note = placement_sentence(it->second);
    if (!caption.empty() && caption.back() != '.')
      note = ". " + note;
    else
      note = " " + note;
    // Beside the reference, its last rungs widen the range as figures/roofline.py widens it.
    const std::vector<PlacedPoint>* reference_points = nullptr;
    if (reference)
      if (auto theirs = reference->points.find(id); theirs != reference->points.end())
        reference_points = &theirs->second;
    FigureRange range =
        figure_range(it->second, roofs, reference_points, reference ? &reference->roofs : nullptr);
    std::string alt = alt_text(id, it->second, roofs, range);
    if (reference) {
      note += " " + reference_caption(*reference, id);
      alt += " " + reference_alt(*reference, id, range);
    }
    out += markdown.substr(at, hit - at) + note + markdown.substr(hit, close + 5 - hit) +
           "{alt=\"" + attribute(alt) + "\"}";
    // The key and the levels figure follow the figure's paragraph.
    size_t end = markdown.find("\n\n", close);
    if (end == std::string::npos) end = markdown.size();
    std::string after = "\n\n" + key_table(it->second, id);
    if (has_levels(it->second)) after += "\n" + levels_figure(id, it->second, roofs, reference);
    if (id.find('-') != std::string::npos) after += "\n" + bytes_table(it->second, id);
    std::string rest = markdown.substr(close + 5, end - close - 5);
    // Another roofline in the same paragraph is annotated first; its key follows this one.
    std::string woven_rest = annotate_figures(rest, points, roofs, reference);
    size_t split = woven_rest.find("\n\n::: {.roofline-key}");
    if (split == std::string::npos)
      out += woven_rest + after;
    else
      out += woven_rest.substr(0, split) + after + woven_rest.substr(split);
    at = end;
    if (end < markdown.size() && after.back() == '\n') at = end + 1;  // keep one blank line
  }
  out += markdown.substr(std::min(at, markdown.size()));
  return out;
}

}  // namespace weave
