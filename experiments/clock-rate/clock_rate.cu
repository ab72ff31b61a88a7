// clock_rate.cu: which of the in-window clock's two inputs is off, or whether the SM clock runs
// above the maximum the driver reports (issue 30, goal 7).
//
// The harness's in-window clock (appendix A) divides an SM's clock64() cycles by %globaltimer
// nanoseconds over the same window. On the H100 it read 1990-1995 MHz against the 1980 MHz that
// the driver reports as the maximum. Three instruments, each against the host's steady clock over
// a one-second spin, settle which input is off:
//   globaltimer / host  -> the GPU's nanosecond timer's rate (1.000 if it is right);
//   clock64 / host      -> the SM clock, with no GPU timer involved;
//   clock64 / globaltimer -> what the harness computes;
// and NVML's SM clock, read by a second host thread while the spin runs, is a fourth, the driver's.
//
//   nvcc -O2 -arch=sm_90 -o clock_rate clock_rate.cu -ldl && ./clock_rate
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CHECK(call)                                                                         \
  do {                                                                                      \
    cudaError_t error_ = (call);                                                            \
    if (error_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(error_)); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

__device__ unsigned long long globaltimer_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// One thread per block, one block per SM: each spins until `ns` of %globaltimer have passed and
// writes its window's cycles and nanoseconds.
__global__ void spin(unsigned long long ns, unsigned long long* cycles, unsigned long long* nanos) {
  const unsigned long long g0 = globaltimer_ns();
  const long long c0 = clock64();
  unsigned long long g1 = g0;
  while (g1 - g0 < ns) g1 = globaltimer_ns();
  const long long c1 = clock64();
  cycles[blockIdx.x] = static_cast<unsigned long long>(c1 - c0);
  nanos[blockIdx.x] = g1 - g0;
}

// NVML through dlopen (no nvml.h on the build machine), the three calls this needs.
struct Nvml {
  using device = void*;
  int (*init)() = nullptr;
  int (*by_index)(unsigned, device*) = nullptr;
  int (*clock)(device, int, unsigned*) = nullptr;      // nvmlDeviceGetClockInfo
  int (*max_clock)(device, int, unsigned*) = nullptr;  // nvmlDeviceGetMaxClockInfo
  device handle = nullptr;
  bool ready = false;
  Nvml() {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!lib) return;
    init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    by_index = reinterpret_cast<int (*)(unsigned, device*)>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
    clock = reinterpret_cast<int (*)(device, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    max_clock = reinterpret_cast<int (*)(device, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    ready = init && by_index && clock && max_clock && init() == 0 && by_index(0, &handle) == 0;
  }
  unsigned sm_mhz() const { unsigned v = 0; if (ready) clock(handle, 1, &v); return v; }  // NVML_CLOCK_SM
  unsigned sm_max_mhz() const { unsigned v = 0; if (ready) max_clock(handle, 1, &v); return v; }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int rate_khz = 0;
  CHECK(cudaDeviceGetAttribute(&rate_khz, cudaDevAttrClockRate, 0));
  const int sms = prop.multiProcessorCount;
  Nvml nvml;
  std::printf("gpu: %s, %d SMs\n", prop.name, sms);
  std::printf("cudaDevAttrClockRate: %.1f MHz; NVML max SM clock: %u MHz\n", rate_khz / 1e3,
              nvml.sm_max_mhz());
  unsigned long long *cycles, *nanos;
  CHECK(cudaMalloc(&cycles, sms * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&nanos, sms * sizeof(unsigned long long)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  spin<<<sms, 1>>>(200'000'000ull, cycles, nanos);  // warm-up, 0.2 s
  CHECK(cudaDeviceSynchronize());
  std::printf("%5s %10s %10s %10s %12s %12s %14s %9s %9s\n", "trial", "host_s", "event/host",
              "gtimer/host", "MHz(c/host)", "MHz(c/gtime)", "MHz(NVML) min", "max", "samples");
  for (int trial = 0; trial < 5; ++trial) {
    std::atomic<bool> running{true};
    std::vector<unsigned> readings;
    std::thread poll([&] {
      while (running.load()) {
        readings.push_back(nvml.sm_mhz());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(cudaEventRecord(start));
    spin<<<sms, 1>>>(1'000'000'000ull, cycles, nanos);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    const auto t1 = std::chrono::steady_clock::now();
    running = false;
    poll.join();
    float event_ms = 0;
    CHECK(cudaEventElapsedTime(&event_ms, start, stop));
    std::vector<unsigned long long> c(sms), g(sms);
    CHECK(cudaMemcpy(c.data(), cycles, sms * sizeof(c[0]), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(g.data(), nanos, sms * sizeof(g[0]), cudaMemcpyDeviceToHost));
    const double host_s = std::chrono::duration<double>(t1 - t0).count();
    std::vector<double> by_host, by_gtimer, gtimer_s;
    for (int i = 0; i < sms; ++i) {
      by_host.push_back(c[i] / host_s / 1e6);
      by_gtimer.push_back(c[i] * 1e3 / g[i]);
      gtimer_s.push_back(g[i] / 1e9);
    }
    // Readings taken while the kernel ran (drop the first and last, which may fall outside it).
    std::vector<double> inside(readings.begin() + (readings.size() > 2), readings.end() - (readings.size() > 2));
    std::printf("%5d %10.6f %10.6f %10.6f %12.2f %12.2f %14.0f %9.0f %9zu\n", trial, host_s,
                event_ms / 1e3 / host_s, median(gtimer_s) / host_s, median(by_host),
                median(by_gtimer), inside.empty() ? 0 : *std::min_element(inside.begin(), inside.end()),
                inside.empty() ? 0 : *std::max_element(inside.begin(), inside.end()), inside.size());
  }
  std::printf("host_s spans the launch and the synchronisation too (tens of microseconds): the\n"
              "ratios to it are low by about 2e-5; MHz(c/host) is a lower bound of the SM clock.\n");
  return 0;
}
