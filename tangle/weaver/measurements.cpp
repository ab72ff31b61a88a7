#include "measurements.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "expression.h"

namespace weave {
namespace fs = std::filesystem;
namespace {

std::string text_field(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<nlohmann::json> read_json(const fs::path& path, const std::string& shown, Diagnostics& diagnostics) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diagnostics.error(shown, 0, "cannot be read; check its permissions or run make measure again");
        return std::nullopt;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
        auto j = nlohmann::json::parse(text.str());
        if (!j.is_object()) throw std::runtime_error("the top level is not an object");
        if (j.value("format", 0) != 1)
            diagnostics.error(shown, 0, "has format " + j.value("format", nlohmann::json()).dump() +
                                            ", the weaver reads format 1 (book/CONVENTIONS.md)");
        return j;
    } catch (const std::exception& e) {
        diagnostics.error(shown, 0, std::string("is not a valid measurement record: ") + e.what() +
                                        "; it is written only by make measure: run it again (or git checkout the file)");
        return std::nullopt;
    }
}

Record read_record(const nlohmann::json& j, const std::string& shown, Diagnostics& diagnostics) {
    Record r;
    r.file = shown;
    r.chapter = text_field(j, "chapter");
    r.title = text_field(j, "title");
    r.src = text_field(j, "src");
    r.gpu = text_field(j, "gpu");
    r.date = text_field(j, "date");
    r.sources_sha256 = text_field(j, "sources_sha256");
    if (auto it = j.find("sources"); it != j.end() && it->is_array())
        for (const auto& s : *it)
            if (s.is_string()) r.sources.push_back(s.get<std::string>());
    if (auto it = j.find("context"); it != j.end() && it->is_object()) r.context = *it;
    auto results = j.find("results");
    if (results == j.end() || !results->is_object()) {
        diagnostics.error(shown, 0, "has no \"results\" object");
        return r;
    }
    for (const auto& [key, quantities] : results->items()) {
        std::string error;
        auto normal = normalise_key(key, error);
        if (!normal || !quantities.is_object()) {
            diagnostics.error(shown, 0, "result '" + key + "': " + (normal ? "is not an object of quantities" : error));
            continue;
        }
        for (const auto& [name, value] : quantities.items()) {
            auto q = read_quantity(value, error);
            if (!q) diagnostics.error(shown, 0, "result '" + key + "', quantity '" + name + "': " + error);
            else r.results[*normal][name] = *q;
        }
    }
    return r;
}

Machine read_machine(const nlohmann::json& j, const std::string& shown, Diagnostics& diagnostics) {
    Machine m;
    m.file = shown;
    m.gpu = text_field(j, "gpu");
    m.date = text_field(j, "date");
    m.sources_sha256 = text_field(j, "sources_sha256");
    if (auto it = j.find("context"); it != j.end() && it->is_object()) m.context = *it;
    auto ceilings = j.find("ceilings");
    if (ceilings == j.end() || !ceilings->is_object()) {
        diagnostics.error(shown, 0, "has no \"ceilings\" object");
        return m;
    }
    for (const auto& [name, value] : ceilings->items()) {
        std::string error;
        auto q = read_quantity(value, error);
        if (!q) diagnostics.error(shown, 0, "ceiling '" + name + "': " + error);
        else m.ceilings[name] = *q;
    }
    return m;
}

bool holds_records(const fs::path& folder) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.path().extension() == ".json") return true;
    return false;
}

}  // namespace

std::optional<Quantity> read_quantity(const nlohmann::json& value, std::string& error) {
    Quantity q;
    if (value.is_number()) {
        q.median = q.min = q.max = value.get<double>();
        return q;
    }
    if (!value.is_object() || !value.contains("median") || !value["median"].is_number()) {
        error = "needs a numeric \"median\"";
        return std::nullopt;
    }
    auto unit = parse_unit(value.value("unit", std::string()));
    if (!unit) {
        error = "has the unit \"" + value.value("unit", std::string()) + "\", which the weaver does not know";
        return std::nullopt;
    }
    q.unit = unit->unit;
    q.median = value["median"].get<double>() * unit->scale;
    q.has_range = value.contains("min") && value["min"].is_number() && value.contains("max") && value["max"].is_number();
    q.min = q.has_range ? value["min"].get<double>() * unit->scale : q.median;
    q.max = q.has_range ? value["max"].get<double>() * unit->scale : q.median;
    q.n = value.value("n", 0);
    return q;
}

const Record* MeasurementStore::record(const std::string& chapter_id) const {
    auto it = records.find(chapter_id);
    return it == records.end() ? nullptr : &it->second;
}

MeasurementStore load_measurements(const fs::path& root, const fs::path& folder, const std::string& gpu_slug,
                                   Diagnostics& diagnostics) {
    MeasurementStore store;
    std::error_code ec;
    const fs::path actual = folder.is_absolute() ? folder : root / folder;
    if (!fs::is_directory(actual, ec)) return store;
    fs::path chosen = folder;
    if (!gpu_slug.empty()) {
        chosen = folder.filename() == gpu_slug ? folder : folder / gpu_slug;
        if (!fs::is_directory(folder.is_absolute() ? chosen : root / chosen, ec)) {
            diagnostics.error(folder.string(), 0, "has no folder for the GPU '" + gpu_slug + "'");
            return store;
        }
    } else if (!holds_records(actual)) {
        std::vector<fs::path> gpus;
        for (const auto& entry : fs::directory_iterator(actual, ec))
            if (entry.is_directory() && holds_records(entry.path())) gpus.push_back(folder / entry.path().filename());
        std::sort(gpus.begin(), gpus.end());
        if (gpus.empty()) return store;
        if (gpus.size() > 1) {
            std::string names;
            for (const auto& g : gpus) names += " " + g.filename().string();
            diagnostics.error(folder.string(), 0, "holds the records of several GPUs (" + names.substr(1) +
                                                      "): choose one with --gpu SLUG");
            return store;
        }
        chosen = gpus.front();
    }
    store.folder = chosen.lexically_normal().string();
    store.slug = chosen.lexically_normal().filename().string();
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(chosen.is_absolute() ? chosen : root / chosen, ec))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
        std::string shown = (fs::path(store.folder) / path.filename()).string();
        auto j = read_json(path, shown, diagnostics);
        if (!j) continue;
        if (path.stem() == "machine") {
            store.machine = read_machine(*j, shown, diagnostics);
            continue;
        }
        Record r = read_record(*j, shown, diagnostics);
        if (r.chapter != path.stem().string())
            diagnostics.error(shown, 0, "says it is chapter \"" + r.chapter + "\" but is named " +
                                            path.filename().string() + ": records are named <chapter id>.json");
        store.records[path.stem().string()] = std::move(r);
    }
    return store;
}

}  // namespace weave
