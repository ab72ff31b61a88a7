#include "units.h"

#include <cctype>
#include <map>
#include <set>

namespace weave {

std::optional<ParsedUnit> parse_unit(const std::string& text) {
  static const std::map<std::string, ParsedUnit> known = {
      {"", {units::unknown, 1}},
      {"s", {units::seconds, 1}},
      {"B", {units::bytes, 1}},
      {"FLOP", {units::flops, 1}},
      {"B/s", {units::bytes_per_s, 1}},
      {"FLOP/s", {units::flops_per_s, 1}},
      {"FLOP/B", {units::flops_per_byte, 1}},
      {"Hz", {units::hertz, 1}},
      {"MHz", {units::hertz, 1e6}},
      {"GHz", {units::hertz, 1e9}},
      {"1", {units::none, 1}},
  };
  auto it = known.find(text);
  if (it == known.end()) return std::nullopt;
  return it->second;
}

namespace {

// book/CONVENTIONS.md, "Units": keep the two in step (tangle/measure/measure.py has the same rule).
const std::map<std::string, std::string>& named_units() {
  static const std::map<std::string, std::string> names = {
      {"time", "s"},
      {"latency", "s"},
      {"bytes", "B"},
      {"flops", "FLOP"},
      {"bandwidth", "B/s"},
      {"flop_rate", "FLOP/s"},
      {"read_ceiling", "B/s"},
      {"fetch_granularity", "B"},
      // Times named before the rule (chapters 1.4 and 3.3): per step, per launch, a timeline.
      {"span", "s"},
      {"kernel_mean", "s"},
      {"gap_mean", "s"},
      {"timer_resolution", "s"},
      {"per_launch", "s"},
      {"per_kernel", "s"},
      {"per_node", "s"},
      {"model_launch_tp", "s"},
      {"model_node", "s"},
      {"model_body", "s"},
      {"model_single", "s"},
      {"predicted_saving", "s"},
      {"sm_clock", "Hz"},
      {"dram_clock", "Hz"},  // ncu's clocks while profiling (4.2)
  };
  return names;
}

const std::set<std::string>& dimensionless_names() {
  static const std::set<std::string> names = {
      "achieved_occupancy",
      "agreements",
      "blocks",
      "blocks_per_sm",
      "chains",
      "compute_capability",
      "configurations",
      "divergent_warps",
      "efficiency",
      "elements",
      "eta",
      "global_load_requests",
      "global_load_sectors",
      "global_store_requests",
      "global_store_sectors",
      "grid",
      "items",
      "iters",
      "kernels",
      "launched_threads",
      "launches",
      "loads_per_thread",
      "memory_bus_bits",
      "model_bank_conflicts",
      "model_load_lines",
      "model_load_requests",
      "model_load_sectors",
      "model_loop_instructions",
      "model_sectors_per_request",
      "model_shared_requests",
      "model_shared_wavefronts",
      "model_store_requests",
      "model_store_sectors",
      "model_warp_instructions",
      "occupancy",
      "passes",
      "predicted_blocks_per_sm",
      "predicted_occupancy",
      "predicted_warp_instructions",
      "profiled_kernels",
      "registers",
      "registers_per_thread",
      "resident_warps_per_sm",
      "reuse",
      "sass_shared_wavefronts",
      "shared_bank_conflicts",
      "shared_wavefronts",
      "sm_count",
      "throttled",
      "tuned_index",
      "warp_instructions",
      "warp_instructions_fma",  // ncu's warp instructions by pipe (chapter 1.3)
      "warp_instructions_fmaheavy",
      "warp_instructions_fmalite",
      "warp_instructions_alu",
      "warps",
      "warps_per_sm",
      "wave_size",
      "waves",
      "working_threads",
      // Module 4: counts, indices, fractions of a unit's peak, rates per second of counted events.
      "atomics_per_second",
      "degree",
      "instructions_per_second",
      // 1.1's probe of the schedulers: counts of schedulers and of warps.
      "schedulers_used",
      "fewest_warps_per_scheduler",
      "most_warps_per_scheduler",
      "schedulers_with_most_warps",
      // and its dealing probe: SMs, blocks and warps counted, and the two rules' predicted counts.
      "warps_per_block",
      "sms_used",
      "fewest_blocks_per_sm",
      "most_blocks_per_sm",
      "sms_matching_per_block_rule",
      "sms_matching_balanced_rule",
      "per_block_rule_most_warps",
      "per_block_rule_fewest_warps",
      "balanced_rule_most_warps",
      "balanced_rule_fewest_warps",
      // 3.1: a sum's error relative to sum|x| (its model is predicted_error).
      "measured_error",
      "issue_active",
      "model_atomic_wavefronts",
      "model_pipe_wavefronts",
      "model_requests",
      "model_sectors",
      "model_wavefronts",
      "model_wavefronts_lanes",
      "predicted_binding",
      "predicted_error",
      "shared_atomic_wavefronts",
      "shared_atomic_bank_conflicts",
      "l2_atomic_sectors",
      // Appendix A's harness: its sampling, the clock's window and NVML's state (bit masks,
      // flags, and plain numbers whose unit their name gives: watts, degrees Celsius).
      "samples",
      "converged",
      "noise",
      "throttled_samples",
      "held",
      "hold_timeouts",
      "clock_in_window",
      "nvml",
      "clock_events_start",
      "clock_events_end",
      "power_capped",
      "thermal_slowdown",
      "hardware_slowdown",
      "power_start_watts",
      "power_end_watts",
      "temperature_start_celsius",
      "temperature_end_celsius",
  };
  return names;
}

}  // namespace

std::optional<ParsedUnit> unit_by_name(const std::string& name) {
  auto ends = [&](const char* suffix) { return name.ends_with(suffix); };
  auto starts = [&](const char* prefix) { return name.starts_with(prefix); };
  if (auto it = named_units().find(name); it != named_units().end()) return parse_unit(it->second);
  if (dimensionless_names().count(name) || starts("stall_") || starts("limited_by_") ||
      starts("sol_") || starts("pipe_"))
    return ParsedUnit{units::none, 1};
  // k00_start, k49_end: a kernel's start and end on a timeline, in seconds.
  if (name.size() > 1 && name[0] == 'k' && std::isdigit(static_cast<unsigned char>(name[1])) &&
      (ends("_start") || ends("_end")))
    return ParsedUnit{units::seconds, 1};
  if (ends("_time") || ends("_latency") || ends("_seconds")) return ParsedUnit{units::seconds, 1};
  if (ends("_bytes") || starts("bytes_") || name.find("_bytes_") != std::string::npos)
    return ParsedUnit{units::bytes, 1};
  if (ends("_flops")) return ParsedUnit{units::flops, 1};
  if (ends("_bandwidth")) return ParsedUnit{units::bytes_per_s, 1};
  if (ends("_rate")) return ParsedUnit{units::flops_per_s, 1};
  if (ends("_mhz")) return ParsedUnit{units::hertz, 1e6};
  if (ends("_hz")) return ParsedUnit{units::hertz, 1};
  return std::nullopt;
}

std::optional<ParsedUnit> unit_of_quantity(const std::string& name, const std::string& recorded) {
  if (!recorded.empty()) return parse_unit(recorded);
  return unit_by_name(name).value_or(ParsedUnit{units::unknown, 1});
}

ParsedUnit unit_of_property(const std::string& name) {
  return unit_by_name(name).value_or(ParsedUnit{units::unknown, 1});
}

std::string to_string(const Unit& unit) {
  if (!unit.known) return "(no unit recorded)";
  if (unit == units::none) return "";
  if (unit == units::hertz) return "Hz";
  std::string top, bottom;
  auto put = [&](const char* name, int power) {
    std::string& side = power > 0 ? top : bottom;
    int n = power > 0 ? power : -power;
    if (n == 0) return;
    if (!side.empty()) side += "·";
    side += name;
    if (n > 1) side += "^" + std::to_string(n);
  };
  put("FLOP", unit.FLOP);
  put("B", unit.B);
  put("s", unit.s);
  if (top.empty()) top = "1";
  return bottom.empty() ? top : top + "/" + bottom;
}

}  // namespace weave
