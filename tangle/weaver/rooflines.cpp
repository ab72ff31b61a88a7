#include "rooflines.h"

namespace weave {
namespace {

std::optional<double> count(const std::string& text, const std::string& what, const KernelPoint& k,
                            const std::string& file, const Scope& scope, Diagnostics& diagnostics) {
    std::string error;
    auto expr = parse_expression(text, false, error);
    if (!expr) {
        diagnostics.error(file, k.line, "kernel " + k.name + ": " + what + " \"" + text + "\": " + error);
        return std::nullopt;
    }
    Value v = scope.evaluate(**expr).result;
    if (v.state == Value::State::error) diagnostics.error(file, k.line, "kernel " + k.name + ": " + what + ": " + v.message);
    if (v.state != Value::State::known) return std::nullopt;
    return v.number;
}

nlohmann::json number_or_null(const Value& v) {
    return v.state == Value::State::known ? nlohmann::json(v.number) : nlohmann::json(nullptr);
}

}  // namespace

std::vector<KernelResult> kernel_results(const FrontMatter& fm, const std::string& file, const Scope& scope,
                                         Diagnostics& diagnostics) {
    std::vector<KernelResult> out;
    for (const KernelPoint& k : fm.kernels) {
        std::string error;
        auto name = normalise_key(k.name, error);
        if (!name) { diagnostics.error(file, k.line, "kernel name: " + error); continue; }
        KernelResult r;
        r.name = *name;
        r.line = k.line;
        auto quantity = [&](const char* q) { return scope.lookup(Term{r.name, q, "median"}).value; };
        r.time = quantity("time");
        if (r.time.state == Value::State::error) {
            diagnostics.error(file, k.line, "kernel " + k.name + ": " + r.time.message);
            continue;
        }
        if (!k.flops.empty()) r.flops = count(k.flops, "flops", k, file, scope, diagnostics);
        else if (Value f = quantity("flops"); f.state == Value::State::known) r.flops = f.number;
        if (!k.bytes.empty()) r.bytes = count(k.bytes, "bytes", k, file, scope, diagnostics);
        else if (Value b = quantity("bytes"); b.state == Value::State::known) r.bytes = b.number;
        r.bandwidth = quantity("bandwidth");
        r.flop_rate = quantity("flop_rate");
        if (r.measured() && r.time.number > 0) {
            // The roofline plots the chapter's own count over the measured time; the bandwidth
            // is the benchmark's where it recorded one.
            if (r.bandwidth.state != Value::State::known && r.bytes)
                r.bandwidth = {Value::State::known, *r.bytes / r.time.number, units::bytes_per_s, ""};
            if (r.flops) r.flop_rate = {Value::State::known, *r.flops / r.time.number, units::flops_per_s, ""};
        }
        out.push_back(r);
    }
    return out;
}

nlohmann::json roofline_inputs(const std::vector<RooflineChapter>& chapters, const MeasurementStore& store,
                               bool book_figure) {
    nlohmann::json j;
    j["format"] = 1;
    j["gpu"] = store.machine ? nlohmann::json(store.machine->gpu) : nlohmann::json(nullptr);
    j["gpu_slug"] = store.slug;
    nlohmann::json ceilings = nlohmann::json::object();
    for (const char* name : {"copy_bandwidth", "fp32_fma_rate", "bf16_tensor_rate"}) {
        if (!store.machine || !store.machine->ceilings.count(name)) continue;
        const Quantity& q = store.machine->ceilings.at(name);
        ceilings[name] = {{"value", q.median}, {"unit", to_string(q.unit)}};
    }
    j["ceilings"] = ceilings;
    j["figures"] = nlohmann::json::array();
    j["chapters"] = nlohmann::json::array();
    if (ceilings.empty()) return j;  // nothing can be drawn before the ceilings are measured
    for (const auto& c : chapters) {
        if (c.figure) j["figures"].push_back({{"id", c.id}, {"path", "figures/roofline-" + c.id + ".svg"}});
        if (c.kernels.empty()) continue;
        nlohmann::json kernels = nlohmann::json::array();
        for (const auto& k : c.kernels) {
            nlohmann::json point = {{"name", k.name}, {"flops", k.flops ? nlohmann::json(*k.flops) : nullptr},
                                    {"bytes", k.bytes ? nlohmann::json(*k.bytes) : nullptr},
                                    {"time", number_or_null(k.time)}, {"bandwidth", number_or_null(k.bandwidth)},
                                    {"flop_rate", number_or_null(k.flop_rate)}};
            point["intensity"] = k.flops && k.bytes && *k.bytes > 0 ? nlohmann::json(*k.flops / *k.bytes) : nullptr;
            kernels.push_back(point);
        }
        j["chapters"].push_back({{"id", c.id}, {"title", c.title}, {"basename", c.basename}, {"kernels", kernels}});
    }
    if (book_figure) j["figures"].push_back({{"id", "book"}, {"path", "figures/roofline-book.svg"}});
    return j;
}

}  // namespace weave
