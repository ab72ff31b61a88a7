// experiments/read-ceilings/probe.cu: which way of reading is fastest, from L2 and from DRAM (issue
// 34 goal 4: B_L2 and B_read as ceilings no kernel of the book beats). Each variant's median of 15
// timed launches (events), after two warm-up launches; DRAM reads after a 200 MiB read that evicts
// the buffer. Prints one line per variant and size: bytes per launch, median us, TB/s.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e = (x);                                                               \
    if (e != cudaSuccess) {                                                            \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));            \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

__device__ __forceinline__ float add_up(float4 v) { return (v.x + v.y) + (v.z + v.w); }

enum Path { kCg, kNc };
template <Path P>
__device__ __forceinline__ float4 load(const float4* p) {
  return P == kCg ? __ldcg(p) : __ldg(p);
}

// grid-stride, four loads in flight (the harness's stream)
template <Path P>
__global__ void stream(const float4* __restrict__ d, size_t n, int passes, float* out) {
  size_t G = size_t(gridDim.x) * blockDim.x, t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float s = 0;
  for (int p = 0; p < passes; ++p)
    for (size_t i = t; i + 3 * G < n; i += 4 * G)
      s += add_up(load<P>(d + i)) + add_up(load<P>(d + i + G)) + add_up(load<P>(d + i + 2 * G)) +
           add_up(load<P>(d + i + 3 * G));
  if (s < 0) out[t] = s;
}

// each block its own contiguous chunk, U loads in flight per thread
template <Path P, int U>
__global__ void chunked(const float4* __restrict__ d, size_t n, int passes, float* out) {
  size_t per = n / gridDim.x, base = per * blockIdx.x;
  float s = 0;
  for (int p = 0; p < passes; ++p) {
    size_t i = threadIdx.x;
    for (; i + (U - 1) * blockDim.x < per; i += U * blockDim.x) {
      float4 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = load<P>(d + base + i + u * blockDim.x);
#pragma unroll
      for (int u = 0; u < U; ++u) s += add_up(v[u]);
    }
    for (; i < per; i += blockDim.x) s += add_up(load<P>(d + base + i));
  }
  if (s < 0) out[size_t(blockIdx.x) * blockDim.x + threadIdx.x] = s;
}

__device__ __forceinline__ unsigned sa(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }

// bulk copies into a ring; consume: the block adds up every chunk; own: each block its own region
template <bool Consume, bool Own, int Group = 1>
__global__ void bulk(const float4* __restrict__ d, size_t chunks, int cf4, int stages, int passes,
                     float* out) {
  extern __shared__ __align__(128) float4 ring[];
  __shared__ __align__(8) unsigned long long bar[16];
  unsigned cb = cf4 * 16;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar[s])));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  size_t mine, first = 0, own = chunks / gridDim.x;
  if (Own) {
    mine = size_t(passes) * own;
    first = own * blockIdx.x;
  } else {
    size_t groups = gridDim.x / Group, total = size_t(passes) * chunks;
    mine = total / groups;  // every group the same count: each chunk read by Group blocks at once
  }
  auto issue = [&](size_t k) {
    int s = int(k % stages);
    size_t c = Own ? first + k % own : (blockIdx.x / Group + k * (gridDim.x / Group)) % chunks;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar[s])), "r"(cb));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     sa(ring + s * cf4)),
                 "l"(d + c * cf4), "r"(cb), "r"(sa(&bar[s]))
                 : "memory");
  };
  if (threadIdx.x == 0)
    for (size_t k = 0; k < mine && k < size_t(stages); ++k) issue(k);
  float sum = 0;
  for (size_t k = 0; k < mine; ++k) {
    int s = int(k % stages);
    asm volatile(
        "{\n\t.reg .pred ok;\nW:\n\tmbarrier.try_wait.parity.shared::cta.b64 ok, [%0], %1;\n\t@!ok bra W;\n}" ::"r"(
            sa(&bar[s])),
        "r"(unsigned((k / stages) & 1))
        : "memory");
    if (Consume) {
      for (int i = threadIdx.x; i < cf4; i += blockDim.x) sum += add_up(ring[s * cf4 + i]);
      __syncthreads();
    } else {
      __syncwarp();
    }
    if (threadIdx.x == 0 && k + stages < mine) issue(k + stages);
  }
  if (sum < 0) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

int sms() {
  int n;
  CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0));
  return n;
}

float4* evict_buf;
float* sink;
__global__ void evict(const float4* d, size_t n, float* o) {
  float s = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    s += add_up(d[i]);
  if (s != 0) *o = s;
}

void time_it(const char* name, size_t bytes, bool cold, const std::function<void()>& launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  launch();
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < 15; ++r) {
    if (cold) evict<<<sms() * 8, 256>>>(evict_buf, (200u << 20) / 16, sink);
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  double med = ms[7] * 1e-3;
  std::printf("%-34s %12zu B %9.1f us %7.3f TB/s (min %.3f)\n", name, bytes, med * 1e6, bytes / med * 1e-12,
              bytes / (ms[0] * 1e-3) * 1e-12);
}

template <class K>
int occupancy(K k, int threads, int smem) {
  int b;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, threads, smem));
  return b * sms();
}

int main() {
  CHECK(cudaMalloc(&evict_buf, 200u << 20));
  CHECK(cudaMemset(evict_buf, 0, 200u << 20));
  CHECK(cudaMalloc(&sink, 1 << 24));
  float4* d;
  size_t big = size_t(1) << 31;
  CHECK(cudaMalloc(&d, big));
  CHECK(cudaMemset(d, 0x3C, big));
  for (size_t bytes : {size_t(1) << 24, size_t(1) << 31}) {
    bool cold = bytes > (64u << 20);
    int passes = cold ? 1 : 64;
    size_t n = bytes / 16, moved = bytes * passes;
    char name[64];
    time_it("stream cg 8x256", moved, cold, [&] { stream<kCg><<<sms() * 8, 256>>>(d, n, passes, sink); });
    time_it("stream nc 8x256", moved, cold, [&] { stream<kNc><<<sms() * 8, 256>>>(d, n, passes, sink); });
    time_it("chunked cg U4 8x256", moved, cold, [&] { chunked<kCg, 4><<<sms() * 8, 256>>>(d, n, passes, sink); });
    time_it("chunked nc U4 8x256", moved, cold, [&] { chunked<kNc, 4><<<sms() * 8, 256>>>(d, n, passes, sink); });
    time_it("chunked nc U8 8x256", moved, cold, [&] { chunked<kNc, 8><<<sms() * 8, 256>>>(d, n, passes, sink); });
    time_it("chunked cg U8 2x1024", moved, cold, [&] { chunked<kCg, 8><<<sms() * 2, 1024>>>(d, n, passes, sink); });
    time_it("chunked nc U2 2x1024", moved, cold, [&] { chunked<kNc, 2><<<sms() * 2, 1024>>>(d, n, passes, sink); });
    {
      int smem = 32 * 1024 * 3, cf4 = 32 * 64;
      size_t chunks = n / cf4;
      CHECK(cudaFuncSetAttribute(bulk<true, false, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      CHECK(cudaFuncSetAttribute(bulk<true, false, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      CHECK(cudaFuncSetAttribute(bulk<true, false, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      CHECK(cudaFuncSetAttribute(bulk<true, false, 8>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      int g = occupancy(bulk<true, false, 1>, 128, smem);  // 264: a multiple of 8
      size_t per = size_t(passes) * chunks;
      time_it("bulk-grouped1 32Kx3", (per / g) * g * size_t(cf4) * 16, cold, [&] { bulk<true, false, 1><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
      time_it("bulk-grouped2 32Kx3", (per / (g / 2)) * g * size_t(cf4) * 16, cold, [&] { bulk<true, false, 2><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
      time_it("bulk-grouped4 32Kx3", (per / (g / 4)) * g * size_t(cf4) * 16, cold, [&] { bulk<true, false, 4><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
      time_it("bulk-grouped8 32Kx3", (per / (g / 8)) * g * size_t(cf4) * 16, cold, [&] { bulk<true, false, 8><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
      CHECK(cudaFuncSetAttribute(bulk<true, false, 24>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      CHECK(cudaFuncSetAttribute(bulk<true, false, 66>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      CHECK(cudaFuncSetAttribute(bulk<false, false, 24>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      time_it("bulk-grouped24 32Kx3", (per / (g / 24)) * g * size_t(cf4) * 16, cold, [&] { bulk<true, false, 24><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
      time_it("bulk-grouped66 32Kx3", (per / (g / 66)) * g * size_t(cf4) * 16, cold, [&] { bulk<true, false, 66><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
      time_it("bulk-grouped24-noconsume 32Kx3", (per / (g / 24)) * g * size_t(cf4) * 16, cold, [&] { bulk<false, false, 24><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
    }
    {
      int smem = 64 * 1024 * 3, cf4 = 64 * 64;
      size_t chunks = n / cf4;
      CHECK(cudaFuncSetAttribute(bulk<true, false, 12>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      int g = occupancy(bulk<true, false, 12>, 128, smem);  // 132
      size_t per = size_t(passes) * chunks;
      time_it("bulk-grouped12 64Kx3 1x128", (per / (g / 12)) * g * size_t(cf4) * 16, cold, [&] { bulk<true, false, 12><<<g, 128, smem>>>(d, chunks, cf4, 3, passes, sink); });
    }
    if (!cold) continue;
    struct B { int kib, stages, threads; };
    for (B s : {B{16, 6, 128}, B{16, 3, 128}, B{8, 6, 128}, B{32, 3, 128}, B{16, 6, 256}}) {
      int smem = s.kib * 1024 * s.stages, cf4 = s.kib * 64;
      size_t chunks = n / cf4;
      CHECK(cudaFuncSetAttribute(bulk<true, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      CHECK(cudaFuncSetAttribute(bulk<false, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      CHECK(cudaFuncSetAttribute(bulk<true, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      int g = occupancy(bulk<true, false>, s.threads, smem);
      std::snprintf(name, sizeof name, "bulk %dKx%d %dx%d", s.kib, s.stages, g / sms(), s.threads);
      time_it(name, moved, cold, [&] { bulk<true, false><<<g, s.threads, smem>>>(d, chunks, cf4, s.stages, passes, sink); });
      std::snprintf(name, sizeof name, "bulk-noconsume %dKx%d %dx%d", s.kib, s.stages, g / sms(), s.threads);
      time_it(name, moved, cold, [&] { bulk<false, false><<<g, s.threads, smem>>>(d, chunks, cf4, s.stages, passes, sink); });
      std::snprintf(name, sizeof name, "bulk-own %dKx%d %dx%d", s.kib, s.stages, g / sms(), s.threads);
      size_t own_moved = (chunks / g) * g * size_t(cf4) * 16 * passes;
      time_it(name, own_moved, cold, [&] { bulk<true, true><<<g, s.threads, smem>>>(d, chunks, cf4, s.stages, passes, sink); });
    }
  }
  return 0;
}
