//===- TestKernels.h - device kernels of the GPU tests ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Small kernels that the hand-written test programs need on device memory
// where a compiled program would bring its own. The runtime has none of
// its own to offer (docs/GPU.md). No CUDA header here, so that callers
// need only the runtime's C ABI.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_TEST_TESTKERNELS_H
#define SUMMA_RUNTIME_GPU_TEST_TESTKERNELS_H

#include <cstdint>

namespace summa::gputest {

/// y[e] = alpha * x[e] for `count` elements of `dtype` (SUMMA_DT_F32,
/// SUMMA_DT_F16 or SUMMA_DT_BF16) at the device addresses x and y, computed
/// in f32 and rounded once; y may be x (alpha = 1 copies). Enqueued on the
/// runtime's compute stream (summaRtComputeStream), so it is ordered with
/// the runtime's GEMMs and collectives; returns without waiting. Aborts the
/// process with a message on another element type or a failed launch.
void scaleOnStream(int32_t dtype, intptr_t x, intptr_t y, int64_t count,
                   double alpha);

} // namespace summa::gputest

#endif // SUMMA_RUNTIME_GPU_TEST_TESTKERNELS_H
