//===- SummaRuntime.h - summa runtime C ABI ---------------------*- C -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one C ABI between code compiled by summa and its runtime library. The
// CPU backend implements it with MPI and CBLAS; the GPU backend (CUDA, NCCL,
// cuBLAS) implements the same symbols. The compiler describes these
// signatures once, in lib/Conversion/SummaToRuntime/RuntimeABI.cpp; keep the
// two in sync (SUMMA_RT_API_VERSION guards it).
//
// Conventions:
//  * Buffers are passed as (base, offset): `base` is the aligned pointer of a
//    memref as an integer (intptr_t, MLIR's `index`), `offset` counts
//    elements. Sizes and counts are int64_t elements.
//  * Grid axes: 0 = row (coordinate i), 1 = col (coordinate j), 2 = depth
//    (coordinate k). A collective names, as a bit mask (1 << axis), the grid
//    axes its group spans (as upstream MLIR's shard dialect does): the group
//    of mask (1 << SUMMA_AXIS_COL) is the set of ranks that share i and k,
//    i.e. one row of the grid. A rank's index inside a group is its order by
//    world rank. World rank = k*q*q + i*q + j.
//  * Every failure (bad argument, failing MPI / BLAS / CUDA / NCCL call)
//    prints the rank, the call and the message to stderr and aborts all ranks
//    (MPI_Abort), so no rank is left waiting in a collective.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_SUMMARUNTIME_H
#define SUMMA_RUNTIME_SUMMARUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define SUMMA_RT_EXPORT __declspec(dllexport)
#else
#define SUMMA_RT_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SUMMA_RT_API_VERSION 9

/// Element types. Values are part of the ABI.
enum SummaDType {
  SUMMA_DT_F32 = 0,
  SUMMA_DT_F64 = 1,
  SUMMA_DT_F16 = 2,
  SUMMA_DT_BF16 = 3,
  /// Integers (token ids, class labels): inputs of the driver, which fills
  /// them with values in [0, scale), and data of the collectives; no GEMM.
  SUMMA_DT_I64 = 4,
  SUMMA_DT_I32 = 5,
};

/// Grid axes. Values are part of the ABI.
enum SummaAxis {
  SUMMA_AXIS_ROW = 0,
  SUMMA_AXIS_COL = 1,
  SUMMA_AXIS_DEPTH = 2,
};

/// Reduction kinds. Values are part of the ABI.
enum SummaReduction {
  SUMMA_RED_SUM = 0,
  SUMMA_RED_MAX = 1,
  SUMMA_RED_MIN = 2,
  SUMMA_RED_PROD = 3,
};

/// The version of this ABI the library implements.
SUMMA_RT_EXPORT int32_t summaRtGetAPIVersion(void);

//===----------------------------------------------------------------------===//
// Life cycle
//===----------------------------------------------------------------------===//

/// Initialises MPI (if not yet), checks that the world has exactly q*q*d
/// ranks (otherwise every rank prints a message naming the grid and the world
/// size and the process exits with status 2, without hanging), and builds the
/// row, column and depth communicators. Pins BLAS to one thread per rank
/// unless OPENBLAS_NUM_THREADS is set.
SUMMA_RT_EXPORT void summaRtInit(int *argc, char ***argv, int64_t q, int64_t d);
/// Writes the profile (if SUMMA_PROFILE is set), frees the communicators and
/// finalises MPI. Collectives started and never waited for are fatal
/// ("summaRtFinalize: N collectives were started and never waited for", or
/// "1 collective was ...").
SUMMA_RT_EXPORT void summaRtFinalize(void);
/// This rank's world rank and the world size.
SUMMA_RT_EXPORT int64_t summaRtWorldRank(void);
SUMMA_RT_EXPORT int64_t summaRtWorldSize(void);
/// This rank's coordinate on `axis` (SummaAxis).
SUMMA_RT_EXPORT int64_t summaRtGridCoord(int32_t axis);
/// The grid's extent on `axis` (q, q or d).
SUMMA_RT_EXPORT int64_t summaRtGridSize(int32_t axis);
/// Element `offset` of the buffer at `base`, of element type `dtype`
/// (SUMMA_DT_I64 or SUMMA_DT_I32), as an int64_t: how host code reads an
/// integer from a buffer (convert-scalar-loads-to-runtime; a decode step's
/// position). The GPU backend copies it from the device after the work
/// queued before it (API version 9).
SUMMA_RT_EXPORT int64_t summaRtLoadScalar(intptr_t base, int64_t offset,
                                          int32_t dtype);
/// Reports a fatal error from compiled code or a driver: prints the rank and
/// message, then aborts every rank.
SUMMA_RT_EXPORT void summaRtFatal(const char *message);

/// What computes this backend's local products: one line for people
/// (`json` = 0) or a JSON object (`json` = 1). The CPU backend: the BLAS
/// library, its kernel set, how that was chosen (OPENBLAS_CORETYPE, the
/// CPU's flags, OpenBLAS's own detection) and the CPU; the GPU backend: the
/// device and cuBLAS. Valid after summaRtInit.
SUMMA_RT_EXPORT const char *summaRtKernelInfo(int32_t json);

//===----------------------------------------------------------------------===//
// Collectives (in place unless they change the shape)
//===----------------------------------------------------------------------===//

/// Broadcast `count` elements from the rank with index `root` in the group
/// spanning `axesMask`.
SUMMA_RT_EXPORT void summaRtBroadcast(intptr_t base, int64_t offset,
                                      int64_t count, int32_t dtype,
                                      int32_t axesMask, int64_t root);
/// Reduce to `root` of the group, in place (the root's buffer receives the
/// result; the others' buffers are left unchanged).
SUMMA_RT_EXPORT void summaRtReduce(intptr_t base, int64_t offset, int64_t count,
                                   int32_t dtype, int32_t axesMask,
                                   int64_t root, int32_t kind);
/// Non-blocking forms of summaRtBroadcast and summaRtReduce: the same
/// arguments, validated first with the same fatal messages (naming
/// summaRtBroadcastStart / summaRtReduceStart), the same result once
/// complete. They start the collective and return a request handle (> 0)
/// without waiting for it; a group of one rank has nothing to do and returns
/// 0 (count == 0 over a larger group is still a collective and gets a
/// handle). Until summaRtWait(handle) returns, the buffer must not be read or
/// written. Every handle must be waited for exactly once; summaRtFinalize
/// aborts if some never were. Collectives in flight on the same group must be
/// started in the same order on every rank of it (as any collectives); they
/// may be waited for in any order.
///
/// The CPU backend issues MPI_Ibcast / MPI_Ireduce; the GPU backend enqueues
/// the collective on its communication stream (in the one-GPU MPI test mode
/// it may already be complete when the start returns).
SUMMA_RT_EXPORT int64_t summaRtBroadcastStart(intptr_t base, int64_t offset,
                                              int64_t count, int32_t dtype,
                                              int32_t axesMask, int64_t root);
SUMMA_RT_EXPORT int64_t summaRtReduceStart(intptr_t base, int64_t offset,
                                           int64_t count, int32_t dtype,
                                           int32_t axesMask, int64_t root,
                                           int32_t kind);
/// Completes a started collective: on the CPU backend it returns once the
/// buffer holds the result; on the GPU backend the compute stream waits for
/// the collective (the host does not block). 0 returns at once; a handle that
/// is not in flight (never returned by a start, already waited for, or
/// negative) is fatal: "summaRtWait: request N is not in flight".
SUMMA_RT_EXPORT void summaRtWait(int64_t request);
/// All-reduce in place over the group.
SUMMA_RT_EXPORT void summaRtAllReduce(intptr_t base, int64_t offset,
                                      int64_t count, int32_t dtype,
                                      int32_t axesMask, int32_t kind);
/// All-gather along one tensor dimension. The source is viewed as a row-major
/// [outer, inner] array (inner = the product of the gathered dimension and
/// the dimensions after it); the destination is [outer, n*inner] where n is
/// the group size, and group member r's block lands at columns
/// [r*inner, (r+1)*inner).
SUMMA_RT_EXPORT void summaRtAllGather(intptr_t srcBase, int64_t srcOffset,
                                      intptr_t dstBase, int64_t dstOffset,
                                      int64_t outer, int64_t inner,
                                      int32_t dtype, int32_t axesMask);
/// Reduce-scatter along one tensor dimension, the inverse of summaRtAllGather:
/// the source is [outer, n*inner], the destination [outer, inner]; member r
/// receives the reduction of every member's columns [r*inner, (r+1)*inner).
SUMMA_RT_EXPORT void summaRtReduceScatter(intptr_t srcBase, int64_t srcOffset,
                                          intptr_t dstBase, int64_t dstOffset,
                                          int64_t outer, int64_t inner,
                                          int32_t dtype, int32_t axesMask,
                                          int32_t kind);

//===----------------------------------------------------------------------===//
// Local compute
//===----------------------------------------------------------------------===//

/// C[m,n] (+)= op(A) * op(B), row-major with leading dimensions lda, ldb,
/// ldc (in elements). op(A) is A[m,k] (transA = 0) or A[k,m]^T (transA = 1);
/// op(B) likewise. accumulate = 0 overwrites C.
SUMMA_RT_EXPORT void summaRtMatmul(int32_t dtype, intptr_t aBase,
                                   int64_t aOffset, int64_t lda, intptr_t bBase,
                                   int64_t bOffset, int64_t ldb, intptr_t cBase,
                                   int64_t cOffset, int64_t ldc, int64_t m,
                                   int64_t n, int64_t k, int32_t transA,
                                   int32_t transB, int32_t accumulate);

/// `batch` independent GEMMs as summaRtMatmul: the i-th multiplies the A, B
/// and C that start strideA, strideB and strideC elements (each >= 0) after
/// the (i-1)-th. The C of different GEMMs must not share an element (their
/// rows may interleave). One call, so that a backend can run all of them at
/// once (the GPU backend: cublasGemmStridedBatchedEx); the profile counts
/// one GEMM per member.
SUMMA_RT_EXPORT void summaRtMatmulBatched(
    int32_t dtype, intptr_t aBase, int64_t aOffset, int64_t lda,
    int64_t strideA, intptr_t bBase, int64_t bOffset, int64_t ldb,
    int64_t strideB, intptr_t cBase, int64_t cOffset, int64_t ldc,
    int64_t strideC, int64_t m, int64_t n, int64_t k, int64_t batch,
    int32_t transA, int32_t transB, int32_t accumulate);

/// D[m,n] = act(op(A) * op(B) + R + bias), row-major, with op(A), op(B),
/// lda and ldb as in summaRtMatmul. R, the residual, is [m,n] with leading
/// dimension ldr; rBase = 0 means none (ldr is then ignored). R may be D
/// itself (the same base, offset and leading dimension: D's old content is
/// added) but must not otherwise overlap D. bias is n contiguous elements
/// at biasOffset, bias[j] added to every row's column j; biasBase = 0 means
/// none. activation: 0 = none, 1 = GeLU in the tanh form,
/// gelu(x) = 0.5 x (1 + tanh(0.7978845608 (x + 0.044715 x^3))), applied after
/// the sums. k = 0 gives D = act(R + bias). The profile counts it as one
/// GEMM, as summaRtMatmul.
SUMMA_RT_EXPORT void summaRtMatmulEpilogue(
    int32_t dtype, intptr_t aBase, int64_t aOffset, int64_t lda, intptr_t bBase,
    int64_t bOffset, int64_t ldb, intptr_t rBase, int64_t rOffset, int64_t ldr,
    intptr_t biasBase, int64_t biasOffset, intptr_t dBase, int64_t dOffset,
    int64_t ldd, int64_t m, int64_t n, int64_t k, int32_t transA,
    int32_t transB, int32_t activation);

//===----------------------------------------------------------------------===//
// Driver support (used by the main that summa-compile links in)
//===----------------------------------------------------------------------===//

#define SUMMA_MAX_RANK 4

/// One argument or result of the compiled entry function.
typedef struct SummaTensorDesc {
  const char *name;
  int32_t rank;
  int32_t dtype;
  int64_t globalShape[SUMMA_MAX_RANK];
  int64_t localShape[SUMMA_MAX_RANK];
  /// Per dimension, the grid axes that split it, outer to inner, terminated
  /// by -1 (all -1: replicated). The block index of a rank along the
  /// dimension is the mixed-radix number of its coordinates on those axes.
  int32_t splitAxes[SUMMA_MAX_RANK][3];
  /// Inputs are filled with uniform values in [-1, 1) times `scale`.
  double scale;
  /// Inputs: SUMMA_INIT_UNIFORM, SUMMA_INIT_ZEROS or SUMMA_INIT_NONNEGATIVE
  /// (values in [0, 1)
  /// times `scale`, e.g. for the second moments of Adam).
  int32_t init;
  /// Outputs: 1 + the index of the input this output replaces in the next
  /// step (an updated weight or optimizer state), or 0. --steps N feeds
  /// these back.
  int32_t updates;
  /// Per dimension, the number of groups a factored dimension is cut into
  /// (0 or 1: not factored). A rank holds its block of every group, group
  /// by group: local index i of a dimension of local size L in g groups is
  /// global index (i / (L/g)) * (L/g) * blocks + block * (L/g) + i % (L/g).
  int64_t groups[SUMMA_MAX_RANK];
  /// The name the function gives the tensor (summa.name), by which --inputs
  /// and --outputs files name it; null: `name`.
  const char *label;
} SummaTensorDesc;

enum SummaInit {
  SUMMA_INIT_UNIFORM = 0,
  SUMMA_INIT_NONNEGATIVE = 1,
  /// Zeros, and optional in --inputs (an optimizer's state, a step
  /// counter: summa.init = "zeros").
  SUMMA_INIT_ZEROS = 2,
};

/// Calls a compiled function on buffers (inputs, then outputs), each buffer
/// a dense row-major array of the tensor's local (spmd) or global
/// (reference) shape. The spmd function's buffers are the backend's (device
/// memory on the GPU); the reference's are host memory on every backend.
typedef void (*SummaInvokeFn)(void **buffers);

/// What --gradcheck compares (API version 8): a training step's loss and
/// the gradients its derivative rules give, both compiled unpartitioned for
/// the host as the reference is (in f64 where `f64`), from the step's first
/// `numInputs` inputs (whole, host memory).
typedef struct SummaGradcheckDesc {
  /// The loss function: the inputs, then its outputs (described by
  /// `lossOutputs`, global shapes); the loss is the sum of output 0.
  SummaInvokeFn loss;
  int32_t numInputs;
  int32_t numLossOutputs;
  const SummaTensorDesc *lossOutputs;
  /// The gradients: the inputs, then the loss (as output 0 of `loss`) and
  /// the gradient of input params[i] (its shape and type) for each i.
  SummaInvokeFn gradients;
  int32_t numParams;
  const int32_t *params;
  /// Per parameter, a row of its dimension 0 that its gradient leaves out
  /// by definition (an embedding's padding row, summa.padding_idx), which
  /// the directions do not move; -1: none.
  const int64_t *frozenRows;
  /// 1: both compute in f64 and take f16, bf16 and f32 tensors as f64.
  int32_t f64;
} SummaGradcheckDesc;

typedef struct SummaProgramDesc {
  const char *name;
  int64_t q;
  int64_t d;
  int32_t numInputs;
  int32_t numOutputs;
  const SummaTensorDesc *inputs;
  const SummaTensorDesc *outputs;
  SummaInvokeFn spmd;
  /// The unpartitioned program, compiled for the host CPU without the
  /// spmd function's code generation (--check's independent reference).
  SummaInvokeFn reference;
  /// 1: the reference computes in f64 and takes every f16, bf16 and f32
  /// tensor as f64 (the driver widens the inputs exactly); 0: in the
  /// tensors' own types.
  int32_t referenceF64;
  /// --gradcheck's functions (API version 8); null where the program is
  /// not a derived training step (or was compiled with --gradcheck=false).
  const SummaGradcheckDesc *gradcheck;
} SummaProgramDesc;

/// The deterministic input value of element `globalIndex` (row-major linear
/// index into the global tensor) of input number `tensor`: a pure function of
/// (seed, tensor, globalIndex), uniform in [-1, 1). Every backend computes
/// it exactly so: h = mix(mix(mix(seed) ^ (uint32_t)tensor) ^
/// (uint64_t)globalIndex), where mix is the splitmix64 finaliser
///   x += 0x9e3779b97f4a7c15; x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
///   x = (x ^ (x >> 27)) * 0x94d049bb133111eb; return x ^ (x >> 31);
/// and the value is ((int64_t)(h >> 40) - 2^23) * 2^-23 (exact in a float).
SUMMA_RT_EXPORT float summaRtInputValue(uint64_t seed, int32_t tensor,
                                        int64_t globalIndex);

/// The whole driver: parses --iters N, --check, --steps N, --exact-replicas,
/// --seed S, --tol T, --help;
/// initialises the runtime for the program's grid; fills each rank's tiles
/// of the inputs; runs and times the spmd function; with --check gathers the
/// outputs to rank 0, runs the reference on the whole inputs and prints
/// `check: PASS max_rel_err=<x>` or `check: FAIL ...`. Returns the process
/// exit status.
///
/// CPU backend details: the first spmd call (on freshly filled inputs and
/// zeroed outputs) is the one --check verifies, and the warm-up of the N
/// timed calls; rel_err is ||y - ref||_2 / ||ref||_2 over each output (the
/// worst over replicas of replicated blocks), non-finite values fail; every
/// rank returns rank 0's verdict (0 pass, 1 fail, 2 bad option). The
/// reference must not call collectives (only rank 0 runs it) and runs on
/// host memory on both backends.
SUMMA_RT_EXPORT int summaRtMain(int argc, char **argv,
                                const SummaProgramDesc *program);

/// A generator (summa-compile --generate, API version 9): the prefill and
/// the decode step summa-derive-generation{next-token=false} derived from a
/// causal language model's forward, for the same grid.
///  * prefill: input 0 the prompt's ids [B, P]; then the weights. Output 0
///    the logits of the last prompt token [B, 1, V]; the others are the
///    decode step's state (`pos`, the caches), named as its inputs.
///  * decode: input 0 the token [B, 1], input 1 its position `pos` (a
///    0-d i64); the inputs an output updates (summa.updates: `pos`, the
///    caches) are the state; the others the weights, named as the prefill's.
///    Output 0 the logits [B, 1, V].
typedef struct SummaGenerateDesc {
  const SummaProgramDesc *prefill;
  const SummaProgramDesc *decode;
  /// The longest sequence, prompt and new tokens (the export's S).
  int64_t maxLength;
} SummaGenerateDesc;

/// The driver of a generator: reads the weights (--inputs, safetensors or a
/// training checkpoint) and the prompt (--prompt: `input_ids` [B, P'],
/// P' >= P), runs the prefill on the first P tokens and the decode step on
/// the rest of the prompt and each new token, chooses each token from the
/// logits where they are split (greedy, or --temperature/--top-k/--top-p
/// with --seed), stops at --max-new-tokens or when every row has produced
/// --eos, prints the timings and writes `sequences` [B, P' + N] (i64) to
/// --outputs. Returns the process exit status.
SUMMA_RT_EXPORT int summaRtGenerate(int argc, char **argv,
                                    const SummaGenerateDesc *generator);

#ifdef __cplusplus
}
#endif

#endif // SUMMA_RUNTIME_SUMMARUNTIME_H
