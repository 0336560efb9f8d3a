//===- Kernels.cu - transformer kernels of the GPU backend ------*- CUDA
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The kernels of SummaRuntimeKernels.h, for f32, f16 and bf16 (computing in
// f32, one rounding on store), built for sm_80 and sm_90 (plus PTX):
//  * element-wise: bias + GeLU (tanh) / ReLU, their backward, residual add,
//    scale; grid-stride loops over 16-byte vectors when the pointers allow
//    (LaunchGeometry.h);
//  * row-wise, one block per row: scaled, causally masked softmax (online
//    max / sum in one pass, then the output), its backward, LayerNorm
//    forward (mean, then the centred variance: no cancellation) and the
//    input gradient of its backward;
//  * the LayerNorm parameter gradients: column sums over row chunks into f32
//    partials (pool workspace), then one pass over the chunks.
// All launches go to the runtime's compute stream and are checked.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"
#include "LaunchGeometry.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntimeKernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <math_constants.h>

#include <string>

namespace summa::gpu {
// From Context.cpp / Pool.cpp (GpuContext.h includes host-only headers).
cudaStream_t kernelStream(const char *caller);
int kernelMultiprocessors();
void *kernelWorkspace(size_t bytes);
void releaseKernelWorkspace(void *pointer);
} // namespace summa::gpu

using namespace summa::gpu;

namespace {

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

template <typename T>
__device__ __forceinline__ float toFloat(T value);
template <>
__device__ __forceinline__ float toFloat<float>(float value) {
  return value;
}
template <>
__device__ __forceinline__ float toFloat<__half>(__half value) {
  return __half2float(value);
}
template <>
__device__ __forceinline__ float toFloat<__nv_bfloat16>(__nv_bfloat16 value) {
  return __bfloat162float(value);
}

template <typename T>
__device__ __forceinline__ T fromFloat(float value);
template <>
__device__ __forceinline__ float fromFloat<float>(float value) {
  return value;
}
template <>
__device__ __forceinline__ __half fromFloat<__half>(float value) {
  return __float2half_rn(value);
}
template <>
__device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float value) {
  return __float2bfloat16_rn(value);
}

template <typename T, int N>
struct alignas(sizeof(T) * N) Vec {
  T v[N];
};

template <typename T, int N>
__device__ __forceinline__ Vec<T, N> loadVec(const T *pointer) {
  return *reinterpret_cast<const Vec<T, N> *>(pointer);
}

template <typename T, int N>
__device__ __forceinline__ void storeVec(T *pointer, const Vec<T, N> &value) {
  *reinterpret_cast<Vec<T, N> *>(pointer) = value;
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kGeluCubic = 0.044715f;

__device__ __forceinline__ float activate(float x, int activation) {
  switch (activation) {
  case SUMMA_ACT_GELU_TANH: {
    float u = kSqrt2OverPi * (x + kGeluCubic * x * x * x);
    return 0.5f * x * (1.0f + tanhf(u));
  }
  case SUMMA_ACT_RELU:
    return x > 0.0f ? x : 0.0f;
  default:
    return x;
  }
}

__device__ __forceinline__ float activationDerivative(float x, int activation) {
  if (activation == SUMMA_ACT_RELU)
    return x > 0.0f ? 1.0f : 0.0f;
  float u = kSqrt2OverPi * (x + kGeluCubic * x * x * x);
  float t = tanhf(u);
  float du = kSqrt2OverPi * (1.0f + 3.0f * kGeluCubic * x * x);
  return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * du;
}

//===----------------------------------------------------------------------===//
// Element-wise kernels
//===----------------------------------------------------------------------===//

__device__ __forceinline__ int64_t globalThread() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ int64_t gridThreads() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

/// y = act(x + bias[col]); with VEC > 1 the row length is a multiple of VEC,
/// so a vector never straddles two rows.
template <typename T, int VEC>
__global__ void biasActivationKernel(const T *x, const T *bias, T *y,
                                     int64_t count, int64_t cols,
                                     int activation) {
  int64_t vectors = count / VEC;
  for (int64_t v = globalThread(); v < vectors; v += gridThreads()) {
    int64_t e = v * VEC;
    Vec<T, VEC> in = loadVec<T, VEC>(x + e), out;
    Vec<T, VEC> b;
    if (bias)
      b = loadVec<T, VEC>(bias + e % cols);
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      float value = toFloat(in.v[i]) + (bias ? toFloat(b.v[i]) : 0.0f);
      out.v[i] = fromFloat<T>(activate(value, activation));
    }
    storeVec<T, VEC>(y + e, out);
  }
  for (int64_t e = vectors * VEC + globalThread(); e < count;
       e += gridThreads()) {
    float value = toFloat(x[e]) + (bias ? toFloat(bias[e % cols]) : 0.0f);
    y[e] = fromFloat<T>(activate(value, activation));
  }
}

template <typename T, int VEC>
__global__ void activationBackwardKernel(const T *dy, const T *pre, T *dx,
                                         int64_t count, int activation) {
  int64_t vectors = count / VEC;
  for (int64_t v = globalThread(); v < vectors; v += gridThreads()) {
    int64_t e = v * VEC;
    Vec<T, VEC> g = loadVec<T, VEC>(dy + e), p = loadVec<T, VEC>(pre + e), out;
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      out.v[i] = fromFloat<T>(
          toFloat(g.v[i]) * activationDerivative(toFloat(p.v[i]), activation));
    storeVec<T, VEC>(dx + e, out);
  }
  for (int64_t e = vectors * VEC + globalThread(); e < count;
       e += gridThreads())
    dx[e] = fromFloat<T>(toFloat(dy[e]) *
                         activationDerivative(toFloat(pre[e]), activation));
}

template <typename T, int VEC>
__global__ void residualAddKernel(const T *x, const T *residual, T *y,
                                  int64_t count) {
  int64_t vectors = count / VEC;
  for (int64_t v = globalThread(); v < vectors; v += gridThreads()) {
    int64_t e = v * VEC;
    Vec<T, VEC> a = loadVec<T, VEC>(x + e), b = loadVec<T, VEC>(residual + e),
                out;
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      out.v[i] = fromFloat<T>(toFloat(a.v[i]) + toFloat(b.v[i]));
    storeVec<T, VEC>(y + e, out);
  }
  for (int64_t e = vectors * VEC + globalThread(); e < count;
       e += gridThreads())
    y[e] = fromFloat<T>(toFloat(x[e]) + toFloat(residual[e]));
}

template <typename T, int VEC>
__global__ void scaleKernel(const T *x, T *y, int64_t count, float alpha) {
  int64_t vectors = count / VEC;
  for (int64_t v = globalThread(); v < vectors; v += gridThreads()) {
    int64_t e = v * VEC;
    Vec<T, VEC> a = loadVec<T, VEC>(x + e), out;
#pragma unroll
    for (int i = 0; i < VEC; ++i)
      out.v[i] = fromFloat<T>(alpha * toFloat(a.v[i]));
    storeVec<T, VEC>(y + e, out);
  }
  for (int64_t e = vectors * VEC + globalThread(); e < count;
       e += gridThreads())
    y[e] = fromFloat<T>(alpha * toFloat(x[e]));
}

//===----------------------------------------------------------------------===//
// Block reductions (blockDim.x a multiple of 32, at most 1024)
//===----------------------------------------------------------------------===//

__device__ __forceinline__ float warpSum(float value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

/// Sums a and b over the block; every thread gets the totals.
__device__ void blockSum2(float &a, float &b) {
  __shared__ float shared[2][32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int warps = blockDim.x / 32;
  a = warpSum(a);
  b = warpSum(b);
  if (lane == 0) {
    shared[0][warp] = a;
    shared[1][warp] = b;
  }
  __syncthreads();
  a = lane < warps ? shared[0][lane] : 0.0f;
  b = lane < warps ? shared[1][lane] : 0.0f;
  a = warpSum(a);
  b = warpSum(b);
  // Before the next use of `shared`.
  __syncthreads();
}

/// Combines two (max, sum of exp(v - max)) pairs of the online softmax.
__device__ __forceinline__ void combineMaxSum(float &m, float &s, float m2,
                                              float s2) {
  float top = fmaxf(m, m2);
  if (top == -CUDART_INF_F) {
    s = 0.0f;
  } else {
    s = s * expf(m - top) + s2 * expf(m2 - top);
  }
  m = top;
}

__device__ void blockMaxSum(float &m, float &s) {
  __shared__ float shared[2][32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int warps = blockDim.x / 32;
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    float m2 = __shfl_xor_sync(0xffffffffu, m, offset);
    float s2 = __shfl_xor_sync(0xffffffffu, s, offset);
    combineMaxSum(m, s, m2, s2);
  }
  if (lane == 0) {
    shared[0][warp] = m;
    shared[1][warp] = s;
  }
  __syncthreads();
  m = lane < warps ? shared[0][lane] : -CUDART_INF_F;
  s = lane < warps ? shared[1][lane] : 0.0f;
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    float m2 = __shfl_xor_sync(0xffffffffu, m, offset);
    float s2 = __shfl_xor_sync(0xffffffffu, s, offset);
    combineMaxSum(m, s, m2, s2);
  }
  __syncthreads();
}

//===----------------------------------------------------------------------===//
// Row kernels
//===----------------------------------------------------------------------===//

template <typename T>
__global__ void softmaxKernel(const T *x, T *y, int64_t rows, int64_t cols,
                              float scale, int causal, int64_t rowPeriod,
                              int64_t rowOffset) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T *xr = x + r * cols;
    T *yr = y + r * cols;
    // Columns [0, limit) take part; the rest are masked.
    int64_t limit = cols;
    if (causal) {
      int64_t query = rowOffset + (rowPeriod > 0 ? r % rowPeriod : r);
      limit = query + 1 < 0 ? 0 : (query + 1 > cols ? cols : query + 1);
    }
    float m = -CUDART_INF_F, s = 0.0f;
    for (int64_t c = threadIdx.x; c < limit; c += blockDim.x) {
      float v = toFloat(xr[c]) * scale;
      if (v > m) {
        s = s * expf(m - v) + 1.0f;
        m = v;
      } else if (m != -CUDART_INF_F) {
        s += expf(v - m);
      }
    }
    blockMaxSum(m, s);
    float inverse = s > 0.0f ? 1.0f / s : 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      float out = c < limit ? expf(toFloat(xr[c]) * scale - m) * inverse : 0.0f;
      yr[c] = fromFloat<T>(out);
    }
  }
}

template <typename T>
__global__ void softmaxBackwardKernel(const T *y, const T *dy, T *dx,
                                      int64_t rows, int64_t cols, float scale) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T *yr = y + r * cols;
    const T *dyr = dy + r * cols;
    T *dxr = dx + r * cols;
    float dot = 0.0f, unused = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
      dot += toFloat(dyr[c]) * toFloat(yr[c]);
    blockSum2(dot, unused);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      float yv = toFloat(yr[c]);
      dxr[c] = fromFloat<T>(scale * yv * (toFloat(dyr[c]) - dot));
    }
  }
}

template <typename T>
__global__ void layerNormKernel(const T *x, const T *gamma, const T *beta, T *y,
                                float *meanOut, float *rstdOut, int64_t rows,
                                int64_t cols, float eps) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T *xr = x + r * cols;
    T *yr = y + r * cols;
    float sum = 0.0f, unused = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
      sum += toFloat(xr[c]);
    blockSum2(sum, unused);
    float mean = sum / static_cast<float>(cols);
    float squares = 0.0f;
    unused = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      float centred = toFloat(xr[c]) - mean;
      squares += centred * centred;
    }
    blockSum2(squares, unused);
    float rstd = 1.0f / sqrtf(squares / static_cast<float>(cols) + eps);
    if (threadIdx.x == 0) {
      if (meanOut)
        meanOut[r] = mean;
      if (rstdOut)
        rstdOut[r] = rstd;
    }
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      float value = (toFloat(xr[c]) - mean) * rstd;
      if (gamma)
        value *= toFloat(gamma[c]);
      if (beta)
        value += toFloat(beta[c]);
      yr[c] = fromFloat<T>(value);
    }
  }
}

template <typename T>
__global__ void layerNormBackwardKernel(const T *dy, const T *x, const T *gamma,
                                        const float *mean, const float *rstd,
                                        T *dx, int64_t rows, int64_t cols) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T *dyr = dy + r * cols;
    const T *xr = x + r * cols;
    T *dxr = dx + r * cols;
    float mu = mean[r], inv = rstd[r];
    float sumG = 0.0f, sumGX = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      float g = toFloat(dyr[c]) * (gamma ? toFloat(gamma[c]) : 1.0f);
      float xhat = (toFloat(xr[c]) - mu) * inv;
      sumG += g;
      sumGX += g * xhat;
    }
    blockSum2(sumG, sumGX);
    float meanG = sumG / static_cast<float>(cols);
    float meanGX = sumGX / static_cast<float>(cols);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      float g = toFloat(dyr[c]) * (gamma ? toFloat(gamma[c]) : 1.0f);
      float xhat = (toFloat(xr[c]) - mu) * inv;
      dxr[c] = fromFloat<T>(inv * (g - meanG - xhat * meanGX));
    }
  }
}

/// Partial column sums of dy * xhat and dy over one chunk of rows:
/// block (kColumnTile, kColumnRowsPerThreadRow), grid (column tiles, chunks).
template <typename T>
__global__ void
layerNormParamPartialsKernel(const T *dy, const T *x, const float *mean,
                             const float *rstd, float *partG, float *partB,
                             int64_t rows, int64_t cols, int64_t rowsPerChunk) {
  __shared__ float sharedG[kColumnRowsPerThreadRow][kColumnTile + 1];
  __shared__ float sharedB[kColumnRowsPerThreadRow][kColumnTile + 1];
  int64_t col = static_cast<int64_t>(blockIdx.x) * kColumnTile + threadIdx.x;
  int64_t chunk = blockIdx.y;
  int64_t begin = chunk * rowsPerChunk;
  int64_t end = begin + rowsPerChunk < rows ? begin + rowsPerChunk : rows;
  float sumG = 0.0f, sumB = 0.0f;
  if (col < cols) {
    for (int64_t r = begin + threadIdx.y; r < end;
         r += kColumnRowsPerThreadRow) {
      float g = toFloat(dy[r * cols + col]);
      float xhat = (toFloat(x[r * cols + col]) - mean[r]) * rstd[r];
      sumG += g * xhat;
      sumB += g;
    }
  }
  sharedG[threadIdx.y][threadIdx.x] = sumG;
  sharedB[threadIdx.y][threadIdx.x] = sumB;
  __syncthreads();
  if (threadIdx.y == 0 && col < cols) {
    for (int i = 1; i < kColumnRowsPerThreadRow; ++i) {
      sumG += sharedG[i][threadIdx.x];
      sumB += sharedB[i][threadIdx.x];
    }
    partG[chunk * cols + col] = sumG;
    partB[chunk * cols + col] = sumB;
  }
}

template <typename T>
__global__ void
layerNormParamFinishKernel(const float *partG, const float *partB, T *dgamma,
                           T *dbeta, int64_t chunks, int64_t cols) {
  for (int64_t col = globalThread(); col < cols; col += gridThreads()) {
    float sumG = 0.0f, sumB = 0.0f;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      sumG += partG[chunk * cols + col];
      sumB += partB[chunk * cols + col];
    }
    if (dgamma)
      dgamma[col] = fromFloat<T>(sumG);
    if (dbeta)
      dbeta[col] = fromFloat<T>(sumB);
  }
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// Reports a failed kernel launch (bad configuration, no kernel image for
/// this GPU) of the kernel behind `caller`.
void checkLaunch(const char *caller, const char *file, int line) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    std::string what = std::string("<<<...>>> kernel launch of ") + caller;
    cudaCallFailed(what.c_str(), file, line, status);
  }
}

template <typename T>
T *pointerOf(intptr_t address) {
  return reinterpret_cast<T *>(address);
}

uintptr_t bits(intptr_t address) { return static_cast<uintptr_t>(address); }

/// Calls fn<T>() with T the element type of `dtype` (already checked).
template <typename Fn>
void dispatch(int32_t dtype, Fn &&fn) {
  switch (dtype) {
  case SUMMA_DT_F16:
    fn(__half());
    break;
  case SUMMA_DT_BF16:
    fn(__nv_bfloat16());
    break;
  default:
    fn(float());
    break;
  }
}

GpuDType checkedType(const char *caller, int32_t dtype) {
  GpuDType type;
  requireValid(checkDType(caller, dtype, /*allowF64=*/false, &type));
  return type;
}

/// Launches kernel<T, 16/sizeof(T)> or kernel<T, 1> for `count` elements.
template <typename T, typename Launch>
void launchElementwise(const char *caller, int64_t count, int width,
                       Launch &&launch) {
  cudaStream_t stream = kernelStream(caller);
  int vector = 16 / static_cast<int>(sizeof(T));
  Launch1D geometry = elementwiseLaunch(count, width == vector ? vector : 1,
                                        kernelMultiprocessors());
  if (geometry.blocks == 0)
    return;
  launch(width == vector, static_cast<unsigned>(geometry.blocks),
         geometry.threads, stream);
  checkLaunch(caller, __FILE__, __LINE__);
}

} // namespace

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

void summaRtKernelBiasActivation(int32_t dtype, intptr_t x, intptr_t bias,
                                 intptr_t y, int64_t rows, int64_t cols,
                                 int32_t activation) {
  const char *caller = "summaRtKernelBiasActivation";
  GpuDType type = checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, rows, cols));
  int64_t count = rows * cols;
  requireValid(checkKernelPointer(caller, "x", x, count));
  requireValid(checkKernelPointer(caller, "y", y, count));
  requireValid(checkActivation(caller, activation, /*backward=*/false));
  int width =
      vectorWidth({bits(x), bits(bias), bits(y)}, type.size, bias ? cols : 0);
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    constexpr int V = 16 / sizeof(T);
    launchElementwise<T>(
        caller, count, width,
        [&](bool vector, unsigned blocks, int threads, cudaStream_t stream) {
          if (vector)
            biasActivationKernel<T, V><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(x), pointerOf<T>(bias), pointerOf<T>(y), count,
                cols, activation);
          else
            biasActivationKernel<T, 1><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(x), pointerOf<T>(bias), pointerOf<T>(y), count,
                cols, activation);
        });
  });
}

void summaRtKernelActivationBackward(int32_t dtype, int32_t activation,
                                     intptr_t dy, intptr_t pre, intptr_t dx,
                                     int64_t count) {
  const char *caller = "summaRtKernelActivationBackward";
  GpuDType type = checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, count, 1));
  requireValid(checkKernelPointer(caller, "dy", dy, count));
  requireValid(checkKernelPointer(caller, "pre", pre, count));
  requireValid(checkKernelPointer(caller, "dx", dx, count));
  requireValid(checkActivation(caller, activation, /*backward=*/true));
  int width = vectorWidth({bits(dy), bits(pre), bits(dx)}, type.size, 0);
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    constexpr int V = 16 / sizeof(T);
    launchElementwise<T>(
        caller, count, width,
        [&](bool vector, unsigned blocks, int threads, cudaStream_t stream) {
          if (vector)
            activationBackwardKernel<T, V><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(dy), pointerOf<T>(pre), pointerOf<T>(dx), count,
                activation);
          else
            activationBackwardKernel<T, 1><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(dy), pointerOf<T>(pre), pointerOf<T>(dx), count,
                activation);
        });
  });
}

void summaRtKernelResidualAdd(int32_t dtype, intptr_t x, intptr_t residual,
                              intptr_t y, int64_t count) {
  const char *caller = "summaRtKernelResidualAdd";
  GpuDType type = checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, count, 1));
  requireValid(checkKernelPointer(caller, "x", x, count));
  requireValid(checkKernelPointer(caller, "residual", residual, count));
  requireValid(checkKernelPointer(caller, "y", y, count));
  int width = vectorWidth({bits(x), bits(residual), bits(y)}, type.size, 0);
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    constexpr int V = 16 / sizeof(T);
    launchElementwise<T>(
        caller, count, width,
        [&](bool vector, unsigned blocks, int threads, cudaStream_t stream) {
          if (vector)
            residualAddKernel<T, V><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(x), pointerOf<T>(residual), pointerOf<T>(y),
                count);
          else
            residualAddKernel<T, 1><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(x), pointerOf<T>(residual), pointerOf<T>(y),
                count);
        });
  });
}

void summaRtKernelScale(int32_t dtype, intptr_t x, intptr_t y, int64_t count,
                        double alpha) {
  const char *caller = "summaRtKernelScale";
  GpuDType type = checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, count, 1));
  requireValid(checkKernelPointer(caller, "x", x, count));
  requireValid(checkKernelPointer(caller, "y", y, count));
  requireValid(checkScalar(caller, "alpha", alpha, /*nonNegative=*/false));
  int width = vectorWidth({bits(x), bits(y)}, type.size, 0);
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    constexpr int V = 16 / sizeof(T);
    launchElementwise<T>(
        caller, count, width,
        [&](bool vector, unsigned blocks, int threads, cudaStream_t stream) {
          if (vector)
            scaleKernel<T, V><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(x), pointerOf<T>(y), count,
                static_cast<float>(alpha));
          else
            scaleKernel<T, 1><<<blocks, threads, 0, stream>>>(
                pointerOf<T>(x), pointerOf<T>(y), count,
                static_cast<float>(alpha));
        });
  });
}

void summaRtKernelSoftmax(int32_t dtype, intptr_t x, intptr_t y, int64_t rows,
                          int64_t cols, double scale, int32_t causal,
                          int64_t rowPeriod, int64_t rowOffset) {
  const char *caller = "summaRtKernelSoftmax";
  checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, rows, cols));
  requireValid(checkKernelPointer(caller, "x", x, rows * cols));
  requireValid(checkKernelPointer(caller, "y", y, rows * cols));
  requireValid(checkScalar(caller, "scale", scale, /*nonNegative=*/false));
  if (rowPeriod < 0)
    fatalMessage(formatString("%s: negative row period %lld", caller,
                              (long long)rowPeriod));
  cudaStream_t stream = kernelStream(caller);
  if (rows == 0 || cols == 0)
    return;
  int threads = rowThreads(cols, 1);
  auto blocks = static_cast<unsigned>(rowBlocks(rows));
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    softmaxKernel<T><<<blocks, threads, 0, stream>>>(
        pointerOf<T>(x), pointerOf<T>(y), rows, cols, static_cast<float>(scale),
        causal != 0, rowPeriod, rowOffset);
  });
  checkLaunch("softmaxKernel", __FILE__, __LINE__);
}

void summaRtKernelSoftmaxBackward(int32_t dtype, intptr_t y, intptr_t dy,
                                  intptr_t dx, int64_t rows, int64_t cols,
                                  double scale) {
  const char *caller = "summaRtKernelSoftmaxBackward";
  checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, rows, cols));
  requireValid(checkKernelPointer(caller, "y", y, rows * cols));
  requireValid(checkKernelPointer(caller, "dy", dy, rows * cols));
  requireValid(checkKernelPointer(caller, "dx", dx, rows * cols));
  requireValid(checkScalar(caller, "scale", scale, /*nonNegative=*/false));
  cudaStream_t stream = kernelStream(caller);
  if (rows == 0 || cols == 0)
    return;
  int threads = rowThreads(cols, 1);
  auto blocks = static_cast<unsigned>(rowBlocks(rows));
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    softmaxBackwardKernel<T><<<blocks, threads, 0, stream>>>(
        pointerOf<T>(y), pointerOf<T>(dy), pointerOf<T>(dx), rows, cols,
        static_cast<float>(scale));
  });
  checkLaunch("softmaxBackwardKernel", __FILE__, __LINE__);
}

void summaRtKernelLayerNorm(int32_t dtype, intptr_t x, intptr_t gamma,
                            intptr_t beta, intptr_t y, intptr_t mean,
                            intptr_t rstd, int64_t rows, int64_t cols,
                            double eps) {
  const char *caller = "summaRtKernelLayerNorm";
  checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, rows, cols));
  requireValid(checkKernelPointer(caller, "x", x, rows * cols));
  requireValid(checkKernelPointer(caller, "y", y, rows * cols));
  requireValid(checkScalar(caller, "eps", eps, /*nonNegative=*/true));
  if (rows > 0 && cols == 0)
    fatalMessage(formatString("%s: rows of 0 columns have no mean", caller));
  cudaStream_t stream = kernelStream(caller);
  if (rows == 0)
    return;
  int threads = rowThreads(cols, 1);
  auto blocks = static_cast<unsigned>(rowBlocks(rows));
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    layerNormKernel<T><<<blocks, threads, 0, stream>>>(
        pointerOf<T>(x), pointerOf<T>(gamma), pointerOf<T>(beta),
        pointerOf<T>(y), pointerOf<float>(mean), pointerOf<float>(rstd), rows,
        cols, static_cast<float>(eps));
  });
  checkLaunch("layerNormKernel", __FILE__, __LINE__);
}

void summaRtKernelLayerNormBackward(int32_t dtype, intptr_t dy, intptr_t x,
                                    intptr_t gamma, intptr_t mean,
                                    intptr_t rstd, intptr_t dx, intptr_t dgamma,
                                    intptr_t dbeta, int64_t rows,
                                    int64_t cols) {
  const char *caller = "summaRtKernelLayerNormBackward";
  checkedType(caller, dtype);
  requireValid(checkKernelShape(caller, rows, cols));
  int64_t count = rows * cols;
  requireValid(checkKernelPointer(caller, "dy", dy, count));
  requireValid(checkKernelPointer(caller, "x", x, count));
  requireValid(checkKernelPointer(caller, "mean", mean, rows));
  requireValid(checkKernelPointer(caller, "rstd", rstd, rows));
  requireValid(checkKernelPointer(caller, "dx", dx, count));
  if (rows > 0 && cols == 0)
    fatalMessage(formatString("%s: rows of 0 columns have no mean", caller));
  cudaStream_t stream = kernelStream(caller);
  if (rows == 0)
    return;
  // Parameter gradients first: they read dy and x, which dx may overwrite.
  if (dgamma || dbeta) {
    ColumnSumLaunch geometry = columnSumLaunch(rows, cols);
    size_t partialBytes =
        static_cast<size_t>(geometry.chunks * cols) * sizeof(float);
    auto *partials = static_cast<float *>(kernelWorkspace(2 * partialBytes));
    float *partG = partials;
    float *partB = partials + geometry.chunks * cols;
    dim3 grid(static_cast<unsigned>(geometry.columnTiles),
              static_cast<unsigned>(geometry.chunks));
    dim3 block(kColumnTile, kColumnRowsPerThreadRow);
    Launch1D finish = elementwiseLaunch(cols, 1, kernelMultiprocessors());
    dispatch(dtype, [&](auto zero) {
      using T = decltype(zero);
      layerNormParamPartialsKernel<T><<<grid, block, 0, stream>>>(
          pointerOf<T>(dy), pointerOf<T>(x), pointerOf<float>(mean),
          pointerOf<float>(rstd), partG, partB, rows, cols,
          geometry.rowsPerChunk);
      checkLaunch("layerNormParamPartialsKernel", __FILE__, __LINE__);
      layerNormParamFinishKernel<T>
          <<<static_cast<unsigned>(finish.blocks), finish.threads, 0, stream>>>(
              partG, partB, pointerOf<T>(dgamma), pointerOf<T>(dbeta),
              geometry.chunks, cols);
      checkLaunch("layerNormParamFinishKernel", __FILE__, __LINE__);
    });
    releaseKernelWorkspace(partials);
  }
  int threads = rowThreads(cols, 1);
  auto blocks = static_cast<unsigned>(rowBlocks(rows));
  dispatch(dtype, [&](auto zero) {
    using T = decltype(zero);
    layerNormBackwardKernel<T><<<blocks, threads, 0, stream>>>(
        pointerOf<T>(dy), pointerOf<T>(x), pointerOf<T>(gamma),
        pointerOf<float>(mean), pointerOf<float>(rstd), pointerOf<T>(dx), rows,
        cols);
  });
  checkLaunch("layerNormBackwardKernel", __FILE__, __LINE__);
}
