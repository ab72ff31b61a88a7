// The measurement store: one GPU's records (book/measurements/<gpu-slug>/<id>.json) and its
// machine.json, read once, checked, and looked up by chapter id and result key.
// The record format is book/CONVENTIONS.md's; nothing here writes a record.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diagnostics.h"
#include "units.h"

namespace weave {

// One quantity of a result (or a ceiling), already in base units (s, B, FLOP, Hz, ...).
struct Quantity {
  double median = 0, min = 0, max = 0;
  bool has_range = false;  // min and max were recorded
  int n = 0;
  Unit unit;
};

// A result that produced no numbers on this GPU: {"status": "skipped" or "failed", "reason": ...}
// in place of its quantities (book/CONVENTIONS.md, "Skipped and failed results").
struct NotRun {
  std::string status;  // "skipped" or "failed"
  // "needs 26.0 GiB, 23.6 GiB free", or the error's message (a benchmark's stderr): as read,
  // made inert_text (format.h), since every use of it is woven
  std::string reason;
};

struct Record {
  std::string file;  // as shown in messages: book/measurements/h200/3.1.json
  std::string chapter, title, src, gpu, date, sources_sha256;
  std::vector<std::string> sources;
  nlohmann::json context = nlohmann::json::object();
  std::map<std::string, std::map<std::string, Quantity>> results;  // key -> quantity -> values
  std::map<std::string, NotRun> not_run;  // key -> why it has no numbers on this GPU
  int tests_failed = 0;                   // "tests": {"failed": N}: its kernels' tests that failed
  bool profiled = false;  // it has a "profiler" entry: ncu counted its profile: list
  bool stale = false;     // its chapter's code changed since (set by weave_book, not by the loader)
};

struct Machine {
  std::string file;
  std::string gpu, date, sources_sha256;
  nlohmann::json context = nlohmann::json::object();
  std::map<std::string, Quantity> ceilings;
  // ceilings whose benchmark this GPU skipped or failed (the wgmma rate off Hopper): why
  std::map<std::string, NotRun> not_run;
  bool stale = false;  // the harness's code changed since (set by weave_book, not by the loader)
  // How many chapters the make measure that wrote this file measured (its "run"; 0: not recorded)
  int run_chapters = 0;
};

struct MeasurementStore {
  std::string folder;  // as shown: book/measurements/h200 (empty: nothing recorded)
  std::string slug;
  // another GPU's folder, woven beside the reference's (a reference was named and this is not it):
  // a quantity its records lack because they were measured without counters is "not counted on
  // this GPU", not an error (a reader's GPU may have no ncu, or no permission to count)
  bool beside_reference = false;
  std::optional<Machine> machine;
  std::map<std::string, Record> records;  // by chapter id
  // The files there that could not be read, or held a wrong quantity (each already an error), or
  // the folder itself when no GPU's folder in it could be chosen:
  // they are left out whole, and what depends on them is not reported again: one corrupt
  // machine.json is one error, not one per value it would have given.
  std::vector<std::string> unreadable;
  bool machine_unreadable = false;  // machine.json is there but could not be read

  const Record* record(const std::string& chapter_id) const;
};

// `folder` is either one GPU's folder of records or the folder of all GPUs' folders, in which
// case `gpu_slug` picks one; without it, the only one there, else the `reference` GPU's (several
// GPUs' folders are an error only when neither names one of them). A folder that does not exist,
// or holds no records, gives an empty store: every chapter is then "not yet measured".
// A relative `folder` is found under `root` and named in messages as written.
MeasurementStore load_measurements(const std::filesystem::path& root,
                                   const std::filesystem::path& folder, const std::string& gpu_slug,
                                   Diagnostics& diagnostics, const std::string& reference = "");

// The slugs of the GPU folders (those holding records) in the folder of all GPUs, sorted; empty
// when `folder` is itself one GPU's folder or does not exist. A folder of records whose name is
// no slug, or that is a link, is no GPU's: its name goes to `strays`.
std::vector<std::string> gpu_folders(const std::filesystem::path& root,
                                     const std::filesystem::path& folder,
                                     std::vector<std::string>* strays = nullptr);

// A GPU folder's name as measure.py writes it: lower-case letters and digits joined by single '-'
// (nvidia-h200, nvidia-h200-24gib).
bool is_gpu_slug(const std::string& slug);

// Adds one file of a GPU's folder, given its text: machine.json (stem "machine") or the record
// <stem>.json; a file with any error is refused whole (named in store.unreadable). The loader
// reads each file through this; the fuzzer (tests/weave/fuzz_weave.cpp) calls it directly.
void add_measurement_file(MeasurementStore& store, const std::string& stem, const std::string& text,
                          const std::string& shown, Diagnostics& diagnostics);

// Reads one quantity: {"median": ..., "min": ..., "max": ..., "n": ..., "unit": "s"}. A bare
// number, a field of the wrong type, a negative median or one outside [min, max] is an error (in
// `error`). A quantity recorded with the unit "" (records made before every quantity named its
// unit) takes the unit its `name` gives by the rule of book/CONVENTIONS.md, "Units" (units.h,
// unit_by_name).
std::optional<Quantity> read_quantity(const nlohmann::json& value, std::string& error,
                                      const std::string& name = "");

}  // namespace weave
