#include "measurements.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "expression.h"
#include "file_reading.h"
#include "format.h"

namespace weave {
namespace fs = std::filesystem;
namespace {

std::string text_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<nlohmann::json> parse_json(const std::string& text, const std::string& shown,
                                         Diagnostics& diagnostics) {
  try {
    // A key twice in one object is corruption (make measure writes each once): it was read last
    // wins, and a second "results": {} gave one error for each value it hid (tools.md WV11).
    std::vector<std::set<std::string>> keys;  // of each object open, innermost last
    std::string twice;
    auto j = nlohmann::json::parse(
        text, [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
          using Event = nlohmann::json::parse_event_t;
          if (event == Event::object_start) keys.emplace_back();
          if (event == Event::object_end && !keys.empty()) keys.pop_back();
          if (event == Event::key && !keys.empty() && parsed.is_string() &&
              !keys.back().insert(parsed.get<std::string>()).second && twice.empty())
            twice = parsed.get<std::string>();
          return true;
        });
    if (!twice.empty())
      throw std::runtime_error("the key \"" + inert_text(twice.substr(0, 60)) +
                               "\" is given twice in one object");
    if (!j.is_object()) throw std::runtime_error("the top level is not an object");
    // The whole number 1: not "1", not 1.9 (tools.md P5, Z6; the library's type error said
    // neither the field nor what it should be).
    const nlohmann::json format = j.value("format", nlohmann::json());
    if (!format.is_number_integer() || format.get<long long>() != 1)
      diagnostics.error(shown, 0,
                        "has format " + format.dump() +
                            ", the weaver reads format 1, a number (book/CONVENTIONS.md)");
    return j;
  } catch (const std::exception& e) {
    diagnostics.error(
        shown, 0,
        std::string("is not a valid measurement record: ") + e.what() +
            "; it is written only by make measure: run it again (or git checkout the file)");
    return std::nullopt;
  }
}

bool is_count(const nlohmann::json& n);

// The words of a record the box prints (the GPU, the date, the versions) are names and numbers:
// a character Markdown or HTML reads as markup is refused, so no record puts live HTML into the
// book (tools.md O8: gpu "<img src=x onerror=...>" was woven raw). The date is ISO 8601.
void check_printed_words(const nlohmann::json& j, const std::string& shown,
                         Diagnostics& diagnostics) {
  auto check = [&](const nlohmann::json& object, const char* key, const std::string& where) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_string()) return;
    const std::string value = it->get<std::string>();
    size_t bad = value.find_first_of("<>&\"[]{}`*_\\|");
    for (size_t i = 0; i < value.size() && bad == std::string::npos; ++i)
      if (static_cast<unsigned char>(value[i]) < 0x20) bad = i;
    if (bad != std::string::npos)
      diagnostics.error(shown, 0,
                        where + key + " holds the character '" + value.substr(bad, 1) +
                            "', which Markdown or HTML reads as markup: a record names its GPU "
                            "and versions in plain words; run make measure again");
  };
  for (const char* key : {"gpu", "date"}) check(j, key, "");
  if (auto it = j.find("context"); it != j.end() && it->is_object())
    for (const char* key : {"gpu", "runtime", "driver", "nvcc"}) check(*it, key, "context.");
  std::string date = text_field(j, "date");
  // ISO 8601, and a real day and time (tools.md WV12: 2026-13-45T99:99:99Z was taken)
  auto number = [&](size_t at, size_t n) {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (i >= date.size() || !std::isdigit(static_cast<unsigned char>(date[i]))) return -1;
      v = v * 10 + (date[i] - '0');
    }
    return v;
  };
  const int month = number(5, 2), day = number(8, 2);
  bool iso = date.size() >= 10 && number(0, 4) >= 0 && date[4] == '-' && date[7] == '-' &&
             month >= 1 && month <= 12 && day >= 1 && day <= 31;
  if (iso && date.size() > 10)
    iso = date.size() >= 19 && date[10] == 'T' && date[13] == ':' && date[16] == ':' &&
          number(11, 2) >= 0 && number(11, 2) < 24 && number(14, 2) >= 0 && number(14, 2) < 60 &&
          number(17, 2) >= 0 && number(17, 2) <= 60;
  if (!date.empty() && !iso)
    diagnostics.error(
        shown, 0,
        "has the date \"" + date.substr(0, 40) +
            "\", which is not ISO 8601 (2026-11-29T15:02:11Z); run make measure again");
}

// A field of the wrong type is named, with the type it should have: a chapter 3.1 (a number)
// was read as no chapter, a gpu list or a context string was passed over in silence (tools.md
// P5, Z6), and the box said 'not yet measured' beside woven numbers.
void check_field_types(const nlohmann::json& j, const std::string& shown,
                       Diagnostics& diagnostics) {
  auto wrong = [&](const char* key, const char* should) {
    diagnostics.error(shown, 0,
                      std::string("has the ") + key + " " + j[key].dump().substr(0, 60) +
                          ", which is not " + should +
                          "; make measure writes records: run it again, or git checkout the file");
  };
  for (const char* key : {"chapter", "title", "src", "gpu", "date", "sources_sha256"})
    if (j.contains(key) && !j[key].is_string()) wrong(key, "a string (\"...\")");
  for (const char* key : {"context", "tests"})
    if (j.contains(key) && !j[key].is_object()) wrong(key, "an object ({...})");
  if (j.contains("sources") && !j["sources"].is_array()) wrong("sources", "a list of paths");
}

Record read_record(const nlohmann::json& j, const std::string& shown, Diagnostics& diagnostics) {
  Record r;
  r.file = shown;
  check_printed_words(j, shown, diagnostics);
  check_field_types(j, shown, diagnostics);
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
  if (auto it = j.find("tests"); it != j.end() && it->is_object()) {
    auto failed = it->find("failed");
    if (failed != it->end() && is_count(*failed))
      r.tests_failed = static_cast<int>(failed->get<double>());
  }
  auto results = j.find("results");
  if (results == j.end() || !results->is_object()) {
    diagnostics.error(shown, 0, "has no \"results\" object");
    return r;
  }
  r.profiled = j.contains("profiler") && j["profiler"].is_object();
  for (const auto& [key, quantities] : results->items()) {
    std::string error;
    auto normal = normalise_key(key, error);
    if (!normal || !quantities.is_object()) {
      diagnostics.error(
          shown, 0, "result '" + key + "': " + (normal ? "is not an object of quantities" : error));
      continue;
    }
    if (quantities.contains("status")) {  // skipped or failed: a reason, and no numbers
      const nlohmann::json& status = quantities["status"];
      const nlohmann::json reason = quantities.value("reason", nlohmann::json());
      if (!status.is_string() || (status != "skipped" && status != "failed") ||
          !reason.is_string() || reason.get<std::string>().empty())
        diagnostics.error(shown, 0,
                          "result '" + key +
                              "': a result without numbers is {\"status\": "
                              "\"skipped\" or \"failed\", \"reason\": \"...\"} (it has status " +
                              status.dump() + ", reason " + reason.dump() +
                              "); make measure writes records: run it again");
      else
        r.not_run[*normal] = {status.get<std::string>(), inert_text(reason.get<std::string>())};
      continue;
    }
    for (const auto& [name, value] : quantities.items()) {
      auto q = read_quantity(value, error, name);
      if (!q)
        diagnostics.error(shown, 0, "result '" + key + "', quantity '" + name + "': " + error);
      else
        r.results[*normal][name] = *q;
    }
  }
  return r;
}

Machine read_machine(const nlohmann::json& j, const std::string& shown, Diagnostics& diagnostics) {
  Machine m;
  m.file = shown;
  check_printed_words(j, shown, diagnostics);
  check_field_types(j, shown, diagnostics);
  m.gpu = text_field(j, "gpu");
  m.date = text_field(j, "date");
  m.sources_sha256 = text_field(j, "sources_sha256");
  if (auto it = j.find("context"); it != j.end() && it->is_object()) m.context = *it;
  if (auto run = j.find("run"); run != j.end() && run->is_object())
    if (auto chapters = run->find("chapters"); chapters != run->end() && chapters->is_array())
      m.run_chapters = static_cast<int>(chapters->size());
  auto ceilings = j.find("ceilings");
  if (ceilings == j.end() || !ceilings->is_object()) {
    diagnostics.error(shown, 0, "has no \"ceilings\" object");
    return m;
  }
  for (const auto& [name, value] : ceilings->items()) {
    std::string error;
    if (value.is_object() && value.contains("status")) {  // skipped or failed on this GPU
      const nlohmann::json reason = value.value("reason", nlohmann::json());
      const nlohmann::json& status = value["status"];
      if (status.is_string() && (status == "skipped" || status == "failed") && reason.is_string() &&
          !reason.get<std::string>().empty())
        m.not_run[name] = {status.get<std::string>(), inert_text(reason.get<std::string>())};
      else
        diagnostics.error(shown, 0,
                          "ceiling '" + name +
                              "': a ceiling without numbers is {\"status\": \"skipped\" or "
                              "\"failed\", \"reason\": \"...\"}; make measure writes records: "
                              "run it again for chapter A");
      continue;
    }
    auto q = read_quantity(value, error, name);
    if (!q)
      diagnostics.error(shown, 0, "ceiling '" + name + "': " + error);
    else
      m.ceilings[name] = *q;
  }
  return m;
}

// A number of samples: a whole number from 0 to a billion (10 and 10.0 both are).
bool is_count(const nlohmann::json& n) {
  if (!n.is_number()) return false;
  double d = n.get<double>();
  return d >= 0 && d <= 1e9 && d == std::floor(d);
}

// Is the folder named for this GPU? measure.py names it for the GPU's letters and digits
// (nvidia-h200), or as told by --gpu-slug, which may add a suffix after a '-' (nvidia-h200-24gib,
// a run under a memory cap). The folder's letters and digits must begin with the GPU's, and end
// there or at a '-': nvidia-h2000 is another GPU's name, not the H200's with a suffix.
bool named_for(const std::string& folder, const std::string& gpu) {
  std::string wanted;
  for (unsigned char c : gpu)
    if (std::isalnum(c)) wanted += static_cast<char>(std::tolower(c));
  if (wanted.empty()) return false;
  std::size_t matched = 0, at = 0;
  for (; at < folder.size() && matched < wanted.size(); ++at) {
    const unsigned char c = folder[at];
    if (!std::isalnum(c)) continue;
    if (static_cast<char>(std::tolower(c)) != wanted[matched]) return false;
    ++matched;
  }
  return matched == wanted.size() && (at == folder.size() || folder[at] == '-');
}

bool holds_records(const fs::path& folder) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".json") return true;
  return false;
}

}  // namespace

std::optional<Quantity> read_quantity(const nlohmann::json& value, std::string& error,
                                      const std::string& name) {
  // Every field is checked for its type before it is read: a record is input, and a string
  // where a number belongs must be an error naming the key, never an exception.
  auto fail = [&](std::string why) -> std::optional<Quantity> {
    error =
        std::move(why) +
        "; make measure writes records: run it again for this chapter, or git checkout the file";
    return std::nullopt;
  };
  Quantity q;
  if (value.is_number())  // its unit would be a guess, and a wrong one gives unrelated unit errors
                          // later
    return fail("is a bare number (" + value.dump() +
                "): a quantity names its unit, {\"median\": " + value.dump() +
                ", \"unit\": \"s\"} (or \"B\", \"B/s\", \"1\" for a plain count, ...)");
  if (!value.is_object() || !value.contains("median") || !value["median"].is_number()) {
    error =
        "needs a numeric \"median\"" +
        (value.is_object() && value.contains("median") ? " (it is " + value["median"].dump() + ")"
                                                       : std::string()) +
        "; make measure writes records: run it again for this chapter, or git checkout the file";
    return std::nullopt;
  }
  for (const char* key : {"min", "max"})
    if (value.contains(key) && !value[key].is_number())
      return fail(std::string("has a \"") + key + "\" that is not a number (" + value[key].dump() +
                  ")");
  if (value.contains("min") != value.contains("max"))
    return fail(std::string("has a \"") + (value.contains("min") ? "min" : "max") +
                "\" without a \"" + (value.contains("min") ? "max" : "min") +
                "\": a range is both or neither");
  if (value.contains("n") && !is_count(value["n"]))
    return fail("has an \"n\" that is not a count of samples (" + value["n"].dump() + ")");
  if (value.contains("n") && value["n"].get<double>() < 1)  // tools.md WV12: a median of none
    return fail("has \"n\": 0, a median of no samples");
  if (value.contains("unit") && !value["unit"].is_string())
    return fail("has a \"unit\" that is not a string (" + value["unit"].dump() +
                "), such as \"s\" or \"B/s\"");
  const std::string unit_text = value.value("unit", std::string());
  auto unit = unit_of_quantity(name, unit_text);
  if (!unit) {
    error = "has the unit \"" + unit_text + "\", which the weaver does not know";
    return std::nullopt;
  }
  const double median = value["median"].get<double>();
  q.has_range = value.contains("min");
  const double min = q.has_range ? value["min"].get<double>() : median;
  const double max = q.has_range ? value["max"].get<double>() : median;
  if (median < 0)
    return fail("has a negative median (" + value["median"].dump() +
                "), which no time, rate or count can have");
  if (median < min || median > max)
    return fail("has its median " + value["median"].dump() + " outside its range [" +
                value["min"].dump() + ", " + value["max"].dump() +
                "]: the record contradicts itself");
  q.unit = unit->unit;
  q.median = median * unit->scale;
  q.min = min * unit->scale;
  q.max = max * unit->scale;
  q.n = value.contains("n") ? static_cast<int>(value["n"].get<double>()) : 0;
  return q;
}

void add_measurement_file(MeasurementStore& store, const std::string& stem, const std::string& text,
                          const std::string& shown, Diagnostics& diagnostics) {
  // A file that is not JSON, or holds a quantity that is wrong, is refused whole: its errors
  // are said, and nothing is looked up in it (so nothing is said again for each use).
  const size_t errors_before = diagnostics.errors().size();
  auto refused = [&] { return diagnostics.errors().size() > errors_before; };
  auto j = parse_json(text, shown, diagnostics);
  std::optional<Machine> machine;
  std::optional<Record> r;
  if (j && stem == "machine")
    machine = read_machine(*j, shown, diagnostics);
  else if (j)
    r = read_record(*j, shown, diagnostics);
  if (!j || refused()) {
    store.unreadable.push_back(shown);
    if (stem == "machine") store.machine_unreadable = true;
    return;
  }
  if (machine) {
    store.machine = std::move(*machine);
    return;
  }
  if (r->chapter != stem)
    diagnostics.error(shown, 0,
                      "says it is chapter \"" + r->chapter + "\" but is named " + stem +
                          ".json: records are named <chapter id>.json");
  store.records[stem] = std::move(*r);
}

bool is_gpu_slug(const std::string& slug) {
  bool after_dash = true;  // no dash first, none twice, none last
  for (char c : slug) {
    const bool dash = c == '-';
    if (dash ? after_dash
             : !(std::islower(static_cast<unsigned char>(c)) ||
                 std::isdigit(static_cast<unsigned char>(c))))
      return false;
    after_dash = dash;
  }
  return !slug.empty() && !after_dash;
}

std::vector<std::string> gpu_folders(const fs::path& root, const fs::path& folder,
                                     std::vector<std::string>* strays) {
  std::vector<std::string> gpus;
  std::error_code ec;
  const fs::path actual = folder.is_absolute() ? folder : root / folder;
  for (const auto& entry : fs::directory_iterator(actual, ec)) {
    if (!entry.is_directory() || !holds_records(entry.path())) continue;
    // A GPU's folder is named by its slug, and is a folder, not a link (CONVENTIONS: "one folder
    // per GPU ... and nothing else"): a copy named "NVIDIA H200" or a link alias was a second
    // GPU on the GPUs page (tools.md WV13)
    const std::string name = entry.path().filename().string();
    if (is_gpu_slug(name) && !entry.is_symlink())
      gpus.push_back(name);
    else if (strays)
      strays->push_back(name);
  }
  std::sort(gpus.begin(), gpus.end());
  return gpus;
}

const Record* MeasurementStore::record(const std::string& chapter_id) const {
  auto it = records.find(chapter_id);
  return it == records.end() ? nullptr : &it->second;
}

MeasurementStore load_measurements(const fs::path& root, const fs::path& folder,
                                   const std::string& gpu_slug, Diagnostics& diagnostics,
                                   const std::string& reference) {
  MeasurementStore store;
  std::error_code ec;
  const fs::path actual = folder.is_absolute() ? folder : root / folder;
  if (!fs::is_directory(actual, ec)) return store;
  fs::path chosen = folder;
  if (!gpu_slug.empty()) {
    chosen = folder.filename() == gpu_slug ? folder : folder / gpu_slug;
    if (!fs::is_directory(folder.is_absolute() ? chosen : root / chosen, ec)) {
      diagnostics.error(folder.string(), 0, "has no folder for the GPU '" + gpu_slug + "'");
      store.unreadable.push_back(folder.string());  // said: no value is counted as unmeasured
      return store;
    }
  } else if (std::vector<std::string> gpus = gpu_folders(root, folder); !gpus.empty()) {
    // Records beside GPU folders: measure.py wrote for a GPU whose name has no letter or digit.
    // Taking the top folder as one GPU's would hide every GPU folder's records.
    if (holds_records(actual)) {
      diagnostics.error(folder.string(), 0,
                        "holds records of its own beside the GPU folders (" + gpus.front() +
                            ", ...): move each *.json there into the folder of the GPU that "
                            "measured it, or remove it");
      store.unreadable.push_back(folder.string());
      return store;
    }
    bool has_reference = std::find(gpus.begin(), gpus.end(), reference) != gpus.end();
    if (gpus.size() > 1 && !has_reference) {
      std::string names;
      for (const auto& g : gpus) names += " " + g;
      diagnostics.error(folder.string(), 0,
                        "holds the records of several GPUs (" + names.substr(1) +
                            ") and none is the reference GPU" +
                            (reference.empty() ? "" : " '" + reference + "'") +
                            ": choose one with --gpu SLUG (make book GPU=SLUG)");
      store.unreadable.push_back(folder.string());
      return store;
    }
    chosen = folder / (gpus.size() > 1 ? reference : gpus.front());
  } else if (!holds_records(actual)) {
    return store;
  }
  store.folder = chosen.lexically_normal().string();
  store.slug = chosen.lexically_normal().filename().string();
  store.beside_reference = !reference.empty() && store.slug != reference;
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(chosen.is_absolute() ? chosen : root / chosen, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::string shown = (fs::path(store.folder) / path.filename()).string();
    std::string why;
    auto text = read_regular_file(path, why);
    if (!text) {
      diagnostics.error(shown, 0, why + "; remove it, or run make measure again");
      store.unreadable.push_back(shown);
      if (path.stem() == "machine") store.machine_unreadable = true;
      continue;
    }
    add_measurement_file(store, path.stem().string(), *text, shown, diagnostics);
  }
  // One folder, one GPU: a record another GPU made would put its numbers beside this GPU's
  // ceilings, under this GPU's name.
  if (store.machine && !store.machine->gpu.empty())
    for (const auto& [id, record] : store.records)
      if (!record.gpu.empty() && record.gpu != store.machine->gpu)
        diagnostics.error(record.file, 0,
                          "was measured on " + record.gpu + ", but " + store.machine->file +
                              " on " + store.machine->gpu +
                              ": a GPU's folder holds that GPU's records only; move the record "
                              "into its GPU's folder, or measure it again here (make measure "
                              "CHAPTER=" +
                              id + ")");
  // The folder is named for the GPU its records name (tools.md O2): a record of another GPU, alone
  // in a folder or with its machine.json, would be woven under this folder's GPU.
  auto misplaced = [&](const std::string& file, const std::string& gpu, const std::string& what) {
    diagnostics.error(file, 0,
                      "was measured on " + gpu + ", but lies in the folder " + store.folder +
                          ", which is named for another GPU: move it into " + folder.string() +
                          "/<its GPU's name as measure.py writes it> (" + what + ")");
  };
  if (store.machine && !store.machine->gpu.empty() && !named_for(store.slug, store.machine->gpu))
    misplaced(store.machine->file, store.machine->gpu, "with the records beside it");
  // Without a machine.json the folder's records still name one GPU between them (tools.md O2).
  if (!store.machine && !store.machine_unreadable) {
    const Record* first = nullptr;
    for (const auto& [id, record] : store.records) {
      if (record.gpu.empty()) continue;
      if (!first) {
        first = &record;
      } else if (record.gpu != first->gpu) {
        diagnostics.error(record.file, 0,
                          "was measured on " + record.gpu + ", but " + first->file + " on " +
                              first->gpu +
                              ": a GPU's folder holds that GPU's records only; move the record "
                              "into its GPU's folder, or measure it again here (make measure "
                              "CHAPTER=" +
                              id + ")");
      }
    }
    if (first && !named_for(store.slug, first->gpu))
      misplaced(first->file, first->gpu, "with the records beside it that name that GPU");
  }
  return store;
}

}  // namespace weave
