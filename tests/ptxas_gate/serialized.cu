// serialized.cu: chapter 3.2b's v1 and v1b as tangled, with one change: the accumulators are
// zeroed by plain C++ assignments instead of ptx::zero_registers. That is how v1b was first
// built, and ptxas then serialized its wgmma (note C7515). tests/ptxas_gate/gate_test.sh compiles
// this file through cmake/ptxas_gate.sh and expects the gate to refuse it.
#include "hopper/hopper_ptx.cuh"

namespace hopper::ptx {
template <int kRegisters>
__device__ __forceinline__ void plain_zero(float (&d)[kRegisters]) {
#pragma unroll
  for (int i = 0; i < kRegisters; ++i) d[i] = 0.0f;
}
}  // namespace hopper::ptx

#define zero_registers plain_zero
#include "hopper/v1_tma_wgmma.cu"
