#include "rooflines.h"

#include "roofline_figure.h"
#include "roofline_reference.h"

#include <algorithm>

namespace weave {
namespace {

std::optional<double> count(const std::string& text, const std::string& what, const KernelPoint& k,
                            const std::string& file, const Scope& scope, Diagnostics& diagnostics) {
  std::string error;
  auto expr = parse_expression(text, false, error);
  if (!expr) {
    diagnostics.error(file, k.line,
                      "kernel " + k.name + ": " + what + " \"" + text + "\": " + error);
    return std::nullopt;
  }
  Value v = scope.evaluate(**expr).result;
  if (v.state == Value::State::error)
    diagnostics.error(file, k.line, "kernel " + k.name + ": " + what + ": " + v.message);
  if (v.state != Value::State::known) return std::nullopt;
  return v.number;
}

nlohmann::json number_or_null(const Value& v) {
  return v.state == Value::State::known ? nlohmann::json(v.number) : nlohmann::json(nullptr);
}

}  // namespace

std::vector<KernelResult> kernel_results(const FrontMatter& fm, const std::string& file,
                                         const Scope& scope, Diagnostics& diagnostics) {
  std::vector<KernelResult> out;
  for (const KernelPoint& k : fm.kernels) {
    std::string error;
    auto name = normalise_key(k.name, error);
    if (!name) {
      diagnostics.error(file, k.line, "kernel name: " + error);
      continue;
    }
    KernelResult r;
    r.name = *name;
    r.line = k.line;
    r.owner = scope.owner_of(r.name);
    r.figure = k.figure.empty() ? scope.chapter_id() : scope.chapter_id() + "-" + k.figure;
    bool twice = std::any_of(out.begin(), out.end(), [&](const KernelResult& o) {
      return o.name == r.name && o.figure == r.figure;
    });
    if (twice) {
      diagnostics.error(file, k.line,
                        "kernel " + k.name + " is listed twice for the figure " + r.figure +
                            ": a key may stand once in each figure");
      continue;
    }
    auto quantity = [&](const char* q) { return scope.lookup(Term{r.name, q, "median"}).value; };
    r.time = quantity("time");
    if (r.time.state == Value::State::error) {
      diagnostics.error(file, k.line, "kernel " + k.name + ": " + r.time.message);
      continue;
    }
    if (!k.flops.empty())
      r.flops = count(k.flops, "flops", k, file, scope, diagnostics);
    else if (Value f = quantity("flops"); f.state == Value::State::known)
      r.flops = f.number;
    if (!k.bytes.empty())
      r.bytes = count(k.bytes, "bytes", k, file, scope, diagnostics);
    else if (Value b = quantity("bytes"); b.state == Value::State::known)
      r.bytes = b.number;
    // ncu's counts, where make measure's profile step recorded them; absent ones stay absent.
    auto counted = [&](const char* q) -> std::optional<double> {
      Value v = quantity(q);
      return v.state == Value::State::known ? std::optional<double>(v.number) : std::nullopt;
    };
    r.dram_bytes = counted("dram_bytes");
    r.l2_bytes = counted("l2_bytes");
    r.l1_bytes = counted("l1_bytes");
    r.fp32_flops = counted("fp32_flops");
    r.tensor_flops = counted("tensor_flops");
    r.shared_wavefronts = counted("shared_wavefronts");
    r.bandwidth = quantity("bandwidth");
    r.flop_rate = quantity("flop_rate");
    if (r.measured() && r.time.number > 0) {
      // The roofline plots the chapter's own count over the measured time; the bandwidth
      // is the benchmark's where it recorded one.
      if (r.bandwidth.state != Value::State::known && r.bytes)
        r.bandwidth = {Value::State::known, *r.bytes / r.time.number, units::bytes_per_s, ""};
      if (r.flops)
        r.flop_rate = {Value::State::known, *r.flops / r.time.number, units::flops_per_s, ""};
    }
    out.push_back(r);
  }
  return out;
}

std::map<std::string, std::vector<KernelResult>> by_figure(
    const std::vector<KernelResult>& kernels) {
  std::map<std::string, std::vector<KernelResult>> out;
  for (const KernelResult& k : kernels) out[k.figure].push_back(k);
  return out;
}

std::vector<KernelResult> book_kernels(const RooflineChapter& chapter) {
  std::vector<KernelResult> out;
  for (const auto& [figure, kernels] : by_figure(chapter.kernels))
    for (const KernelResult& k : kernels) {
      bool seen = std::any_of(out.begin(), out.end(),
                              [&](const KernelResult& o) { return o.name == k.name; });
      if (!k.borrowed(chapter.id) && !seen) out.push_back(k);
    }
  return out;
}

Roofs read_roofs(const MeasurementStore& store) {
  Roofs roofs;
  if (!store.machine) return roofs;
  for (const char* name :
       {"copy_bandwidth", "copy_kernel_bandwidth", "memcpy_bandwidth", "read_bandwidth",
        "l2_bandwidth", "shared_bandwidth", "fp32_fma_rate", "bf16_tensor_rate"}) {
    auto it = store.machine->ceilings.find(name);
    if (it != store.machine->ceilings.end() && it->second.median > 0)
      roofs[name] = it->second.median;
  }
  // Two transfers per memory clock over the whole bus: what the datasheet promises.
  const nlohmann::json& context = store.machine->context;
  auto clock = context.find("memory_clock_mhz"), bus = context.find("memory_bus_bits");
  if (clock != context.end() && bus != context.end() && clock->is_number() && bus->is_number() &&
      clock->get<double>() > 0 && bus->get<double>() > 0)
    roofs["dram_theoretical"] = 2 * clock->get<double>() * 1e6 * bus->get<double>() / 8;
  return roofs;
}

namespace {

nlohmann::json optional_number(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json point_json(const PlacedPoint& p) {
  return {{"number", p.number},
          {"chapter", p.chapter},
          {"name", p.name},
          {"label", p.label},
          {"intensity", p.intensity},
          {"placed_by", p.counted ? "dram_bytes" : "model_bytes"},
          {"flop_rate", p.rate},
          {"l2_intensity", optional_number(p.l2_intensity)},
          {"l1_intensity", optional_number(p.l1_intensity)},
          {"shared_intensity", optional_number(p.shared_intensity)},
          {"lsu_unseen_bytes", optional_number(p.unseen_bytes)},
          {"roof", p.roof},
          {"attainable", p.attainable},
          {"of_roof", p.rate / p.attainable}};
}

nlohmann::json ceilings_json(const Roofs& roofs) {
  nlohmann::json ceilings = nlohmann::json::object();
  for (const auto& [name, value] : roofs) {
    bool rate = name.find("rate") != std::string::npos;
    ceilings[name] = {{"value", value}, {"unit", rate ? "FLOP/s" : "B/s"}};
  }
  return ceilings;
}

nlohmann::json points_json(const std::vector<PlacedPoint>& points) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : points) out.push_back(point_json(p));
  return out;
}

}  // namespace

nlohmann::json roofline_inputs(const std::vector<RooflineChapter>& chapters,
                               const MeasurementStore& store, bool book_figure,
                               const ReferenceSide* reference) {
  nlohmann::json j;
  j["format"] = 2;
  j["gpu"] = store.machine ? nlohmann::json(store.machine->gpu) : nlohmann::json(nullptr);
  j["gpu_slug"] = store.slug;
  Roofs roofs = read_roofs(store);
  j["ceilings"] = ceilings_json(roofs);
  // The reference GPU's side, drawn faintly beside this GPU's (absent woven for the reference).
  auto reference_points = [&](const std::string& figure) {
    if (!reference) return nlohmann::json::array();
    auto it = reference->points.find(figure);
    return it == reference->points.end() ? nlohmann::json::array() : points_json(it->second);
  };
  if (reference)
    j["reference"] = {{"gpu", reference->gpu},
                      {"gpu_slug", reference->slug},
                      {"ceilings", ceilings_json(reference->roofs)}};
  j["memory_roof"] = memory_roof(roofs);
  j["figures"] = nlohmann::json::array();
  j["chapters"] = nlohmann::json::array();
  j["book_points"] = nlohmann::json::array();
  if (!roofs.count("copy_bandwidth"))
    return j;  // nothing can be drawn before the ceilings are measured
  int book_number = 1;
  for (const auto& c : chapters) {
    for (const auto& figure : c.figures)
      j["figures"].push_back({{"id", figure}, {"path", "figures/roofline-" + figure + ".svg"}});
    if (c.kernels.empty()) continue;
    std::vector<KernelResult> in_book = book_kernels(c);
    // One entry per figure of the chapter; each kernel says whether the book's figure shows it.
    for (const auto& [figure, figure_kernels] : by_figure(c.kernels)) {
      auto placed = place_points(c.id, figure_kernels, roofs);
      std::map<std::string, int> number;
      for (const auto& p : placed) number[p.name] = p.number;
      nlohmann::json kernels = nlohmann::json::array();
      for (const auto& k : figure_kernels) {
        nlohmann::json point = {{"name", k.name},
                                {"flops", optional_number(k.flops)},
                                {"bytes", optional_number(k.bytes)},
                                {"time", number_or_null(k.time)},
                                {"bandwidth", number_or_null(k.bandwidth)},
                                {"flop_rate", number_or_null(k.flop_rate)},
                                {"dram_bytes", optional_number(k.dram_bytes)},
                                {"l2_bytes", optional_number(k.l2_bytes)},
                                {"l1_bytes", optional_number(k.l1_bytes)},
                                {"fp32_flops", optional_number(k.fp32_flops)},
                                {"tensor_flops", optional_number(k.tensor_flops)},
                                {"shared_wavefronts", optional_number(k.shared_wavefronts)}};
        point["model_intensity"] =
            k.flops && k.bytes && *k.bytes > 0 ? nlohmann::json(*k.flops / *k.bytes) : nullptr;
        point["number"] = number.count(k.name) ? nlohmann::json(number[k.name]) : nullptr;
        // The figure script leaves out the L1 and shared levels of a kernel whose traffic the
        // LSU's counters miss (roofline_figure.h, lsu_unseen_bytes).
        point["lsu_unseen_bytes"] = nullptr;
        for (const auto& p : placed)
          if (p.name == k.name && p.unseen_bytes) point["lsu_unseen_bytes"] = *p.unseen_bytes;
        point["owner"] = k.owner.empty() ? c.id : k.owner;
        // In the book's figure once, in its own chapter's first figure that lists it.
        auto first = std::find_if(in_book.begin(), in_book.end(),
                                  [&](const KernelResult& o) { return o.name == k.name; });
        point["in_book"] = first != in_book.end() && first->figure == figure;
        kernels.push_back(point);
      }
      nlohmann::json entry = {{"id", figure},
                              {"chapter", c.id},
                              {"title", c.title},
                              {"basename", c.basename},
                              {"kernels", kernels},
                              {"points", points_json(placed)},
                              {"levels", has_levels(placed)}};
      if (reference) entry["reference_points"] = reference_points(figure);
      j["chapters"].push_back(entry);
    }
    auto book_points = place_points(c.id, in_book, roofs, book_number);
    for (const auto& p : book_points) j["book_points"].push_back(point_json(p));
    book_number += static_cast<int>(book_points.size());
  }
  if (book_figure) j["figures"].push_back({{"id", "book"}, {"path", "figures/roofline-book.svg"}});
  if (reference) j["book_reference_points"] = reference_points("book");
  return j;
}

}  // namespace weave
