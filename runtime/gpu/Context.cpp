//===- Context.cpp - life cycle, grid and streams ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtInit / summaRtFinalize and the grid queries of the C ABI for the
// GPU backend, the internal interface of runtime/common/GridState.h (so that
// Profile.cpp is shared with the CPU backend), and the device state:
// device choice, streams, events, cuBLAS handles and communicators.
//
// Communicators. NCCL mode: rank 0 makes an ncclUniqueId, MPI_Bcast sends it,
// every rank joins the world communicator, and ncclCommSplit builds one
// communicator per axes mask with colour = the rank's world rank with the
// spanned coordinates zeroed and key = its world rank, exactly the
// MPI_Comm_split of the CPU backend (runtime/cpu/Grid.cpp). Masks whose
// group has one rank get none (their collectives return at once), a group
// that is the whole world uses the world communicator. MPI mode: the CPU
// backend's MPI_Comm_split, nothing from NCCL.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "GridState.h"
#include "HostCollectives.h"
#include "LaunchGeometry.h"
#include "Profile.h"
#include "RequestTable.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntime.h"
#include "summa/Runtime/SummaRuntimeKernels.h"

#include <mpi.h>

#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

using namespace summa::gpu;
using summa::rt::GridState;
using summa::rt::Group;

namespace {
/// runtime/common/GridState.h's state (GridState.cpp, shared with the CPU
/// backend).
GridState &gridState = summa::rt::grid();
Context state;

constexpr size_t kGemmWorkspaceBytes = size_t(32) << 20;

const char *maskName(int mask) {
  static const char *const names[kNumMasks] = {
      "?", "row", "col", "row+col", "depth", "row+depth", "col+depth", "all"};
  return names[mask];
}

/// The choice environment variable `name` names among `choices` (the first
/// when it is unset or empty); any other value is fatal, `expected` saying
/// what it may be.
template <typename T>
T choiceFromEnvironment(
    const char *name, std::initializer_list<std::pair<const char *, T>> choices,
    const char *expected) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return choices.begin()->second;
  for (const auto &[text, choice] : choices)
    if (std::strcmp(value, text) == 0)
      return choice;
  summa::rt::fatal("summaRtInit: %s='%s' is neither %s", name, value, expected);
}

CollectiveMode modeFromEnvironment() {
  return choiceFromEnvironment<CollectiveMode>(
      "SUMMA_GPU_COLLECTIVES",
      {{"nccl", CollectiveMode::Nccl}, {"mpi", CollectiveMode::Mpi}},
      "'nccl' (the default) nor 'mpi' (the one-GPU test mode)");
}

double timeoutFromEnvironment() {
  const char *value = std::getenv("SUMMA_GPU_TIMEOUT_S");
  if (!value || !*value)
    return 0;
  char *end = nullptr;
  errno = 0;
  double seconds = std::strtod(value, &end);
  if (errno || *end || !(seconds >= 0))
    summa::rt::fatal("summaRtInit: SUMMA_GPU_TIMEOUT_S='%s' is not a "
                     "non-negative number of seconds",
                     value);
  return seconds;
}

GemmEngine engineFromEnvironment() {
  return choiceFromEnvironment<GemmEngine>(
      "SUMMA_GEMM",
      {{"cublaslt", GemmEngine::CublasLt},
       {"lt", GemmEngine::CublasLt},
       {"cublas", GemmEngine::Cublas}},
      "'cublaslt' (the default) nor 'cublas'");
}

/// The distinct NCCL communicators, world last (for destruction order).
std::vector<ncclComm_t> distinctComms() {
  std::vector<ncclComm_t> comms;
  for (int mask = 1; mask < kNumMasks; ++mask)
    if (state.comms[mask] && state.comms[mask] != state.world)
      comms.push_back(state.comms[mask]);
  if (state.world)
    comms.push_back(state.world);
  return comms;
}

void selectDevice(const char *caller) {
  MPI_Comm local = MPI_COMM_NULL;
  SUMMA_MPI_CHECK(MPI_Comm_split_type(gridState.world, MPI_COMM_TYPE_SHARED,
                                      gridState.worldRank, MPI_INFO_NULL,
                                      &local));
  SUMMA_MPI_CHECK(MPI_Comm_rank(local, &state.info.localRank));
  SUMMA_MPI_CHECK(MPI_Comm_size(local, &state.info.localSize));
  SUMMA_MPI_CHECK(MPI_Comm_free(&local));

  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count < 1)
    summa::rt::fatal(
        "%s: no CUDA device is visible to this rank (cudaGetDeviceCount: "
        "%s); libsumma_runtime_cuda.so needs a GPU (link "
        "libsumma_runtime.so to run on CPUs)",
        caller,
        status != cudaSuccess ? cudaGetErrorString(status) : "0 devices");
  if (state.mode == CollectiveMode::Nccl && state.info.localSize > count)
    summa::rt::fatal("%s: %d ranks on this node share %d GPU(s), but NCCL "
                     "needs a GPU per rank; for tests only, "
                     "SUMMA_GPU_COLLECTIVES=mpi lets ranks share a GPU",
                     caller, state.info.localSize, count);
  state.info.ordinal = state.info.localRank % count;
  SUMMA_CUDA_CHECK(cudaSetDevice(state.info.ordinal));
  cudaDeviceProp properties;
  SUMMA_CUDA_CHECK(cudaGetDeviceProperties(&properties, state.info.ordinal));
  state.deviceName = properties.name;
  state.info.name = state.deviceName.c_str();
  state.info.multiprocessors = properties.multiProcessorCount;
  state.info.computeCapability = properties.major * 10 + properties.minor;
  SUMMA_CUDA_CHECK(cudaDriverGetVersion(&state.info.cudaDriver));
  SUMMA_CUDA_CHECK(cudaRuntimeGetVersion(&state.info.cudaRuntime));
  // The NCCL that the loader found, which may not be the one built against:
  // the NCCL mode needs ncclCommSplit (2.18); say so before calling it.
  SUMMA_NCCL_CHECK(ncclGetVersion(&state.info.nccl));
  if (state.mode == CollectiveMode::Nccl)
    requireValid(checkNcclVersion(caller, state.info.nccl));
}

void createStreams() {
  int leastPriority = 0, greatestPriority = 0;
  SUMMA_CUDA_CHECK(
      cudaDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority));
  SUMMA_CUDA_CHECK(cudaStreamCreateWithPriority(
      &state.compute, cudaStreamNonBlocking, leastPriority));
  // Communication first when both have work ready: collectives gate the
  // next steps of every rank.
  SUMMA_CUDA_CHECK(cudaStreamCreateWithPriority(
      &state.comm, cudaStreamNonBlocking, greatestPriority));
  SUMMA_CUDA_CHECK(
      cudaEventCreateWithFlags(&state.computeReady, cudaEventDisableTiming));
}

void createBlas() {
  SUMMA_CUBLAS_CHECK(cublasCreate(&state.cublas));
  SUMMA_CUBLAS_CHECK(cublasSetStream(state.cublas, state.compute));
  SUMMA_CUBLAS_CHECK(cublasLtCreate(&state.lt));
  state.gemmWorkspaceBytes = kGemmWorkspaceBytes;
  state.gemmWorkspace =
      poolAllocate(kGemmWorkspaceBytes, state.compute, "summaRtInit");
  // cuBLAS and cuBLASLt calls all run on the compute stream, in order, so
  // they can share one workspace.
  SUMMA_CUBLAS_CHECK(cublasSetWorkspace(state.cublas, state.gemmWorkspace,
                                        state.gemmWorkspaceBytes));
  SUMMA_CUBLAS_CHECK(cublasGetVersion(state.cublas, &state.info.cublas));
  state.info.cublasLt = cublasLtGetVersion();
  const char *tf32 = std::getenv("SUMMA_ALLOW_TF32");
  state.allowTf32 = tf32 && std::strcmp(tf32, "1") == 0;
  state.engine = engineFromEnvironment();
}

void buildMpiGroups() {
  GridState &g = gridState;
  for (int mask = 1; mask < kNumMasks; ++mask) {
    Group &group = g.groups[mask];
    int colour = static_cast<int>(groupColour(g.q, g.coords, mask));
    SUMMA_MPI_CHECK(
        MPI_Comm_split(gridState.world, colour, g.worldRank, &group.comm));
    SUMMA_MPI_CHECK(MPI_Comm_set_errhandler(group.comm, MPI_ERRORS_RETURN));
    int size = 0, rank = 0;
    SUMMA_MPI_CHECK(MPI_Comm_size(group.comm, &size));
    SUMMA_MPI_CHECK(MPI_Comm_rank(group.comm, &rank));
    if (size != group.size || rank != group.rank)
      summa::rt::fatal("summaRtInit: the MPI group of axes mask %d has %d "
                       "ranks and this rank is %d in it, expected %d and %d",
                       mask, size, rank, group.size, group.rank);
  }
}

void buildNcclGroups() {
  GridState &g = gridState;
  ncclUniqueId id;
  std::memset(&id, 0, sizeof(id));
  if (g.worldRank == 0)
    SUMMA_NCCL_CHECK(ncclGetUniqueId(&id));
  SUMMA_MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, gridState.world));
  SUMMA_NCCL_CHECK(
      ncclCommInitRank(&state.world, g.worldSize, id, g.worldRank));
  // Every rank takes the same decisions in the same order: the group size
  // of a mask is the same everywhere, and ncclCommSplit is collective over
  // the world.
  for (int mask = 1; mask < kNumMasks; ++mask) {
    const Group &group = g.groups[mask];
    if (group.size == 1)
      continue;
    if (group.size == g.worldSize) {
      state.comms[mask] = state.world;
      continue;
    }
    int colour = static_cast<int>(groupColour(g.q, g.coords, mask));
    int key = static_cast<int>(groupKey(g.q, g.coords));
    SUMMA_NCCL_CHECK(
        ncclCommSplit(state.world, colour, key, &state.comms[mask], nullptr));
  }
  for (int mask = 1; mask < kNumMasks; ++mask) {
    if (!state.comms[mask])
      continue;
    int count = 0, rank = 0;
    SUMMA_NCCL_CHECK(ncclCommCount(state.comms[mask], &count));
    SUMMA_NCCL_CHECK(ncclCommUserRank(state.comms[mask], &rank));
    if (count != g.groups[mask].size || rank != g.groups[mask].rank)
      summa::rt::fatal("summaRtInit: the NCCL communicator of axes mask %d "
                       "(%s) has %d ranks and this rank is %d in it, expected "
                       "%d and %d",
                       mask, maskName(mask), count, rank, g.groups[mask].size,
                       g.groups[mask].rank);
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// Internal state
//===----------------------------------------------------------------------===//

Context &summa::gpu::contextState() { return state; }

Context &summa::gpu::context(const char *caller) {
  summa::rt::requireInitialised(caller);
  return state;
}

cudaEvent_t summa::gpu::acquireEvent(bool timing) {
  std::vector<cudaEvent_t> &events =
      timing ? state.freeTimingEvents : state.freeEvents;
  if (!events.empty()) {
    cudaEvent_t event = events.back();
    events.pop_back();
    return event;
  }
  cudaEvent_t event = nullptr;
  SUMMA_CUDA_CHECK(cudaEventCreateWithFlags(
      &event, timing ? cudaEventDefault : cudaEventDisableTiming));
  return event;
}

void summa::gpu::releaseEvent(cudaEvent_t event, bool timing) {
  (timing ? state.freeTimingEvents : state.freeEvents).push_back(event);
}

void summa::gpu::checkAsyncErrors() {
  if (state.mode != CollectiveMode::Nccl)
    return;
  for (ncclComm_t comm : distinctComms()) {
    ncclResult_t result = ncclSuccess;
    SUMMA_NCCL_CHECK(ncclCommGetAsyncError(comm, &result));
    if (result != ncclSuccess && result != ncclInProgress)
      ncclCallFailed("ncclCommGetAsyncError(comm, &result) reported an "
                     "asynchronous error",
                     __FILE__, __LINE__, result);
  }
}

void summa::gpu::pollUntilDone(const std::function<cudaError_t()> &query,
                               const char *call, const char *what) {
  double start = summa::rt::profileClock();
  for (int polls = 0;; ++polls) {
    cudaError_t status = query();
    if (status == cudaSuccess)
      return;
    if (status != cudaErrorNotReady)
      cudaCallFailed(call, __FILE__, __LINE__, status);
    clearNotReady();
    checkAsyncErrors();
    if (state.timeoutSeconds > 0 &&
        summa::rt::profileClock() - start > state.timeoutSeconds)
      summa::rt::fatal("timed out after %g s waiting for %s "
                       "(SUMMA_GPU_TIMEOUT_S); a peer rank may have failed",
                       state.timeoutSeconds, what);
    // Spin briefly (short waits are the common case), then back off.
    if (polls < 1000)
      sched_yield();
    else
      usleep(50);
  }
}

void summa::gpu::waitStream(cudaStream_t stream, const char *what) {
  pollUntilDone([&] { return cudaStreamQuery(stream); },
                "cudaStreamQuery(stream)", what);
}

void summa::gpu::abortCommunicators() {
  // Never fails: this runs on the way out of a fatal error.
  for (ncclComm_t comm : distinctComms())
    ncclCommAbort(comm);
  state.world = nullptr;
  for (ncclComm_t &comm : state.comms)
    comm = nullptr;
}

void *summa::gpu::stagingBuffer(size_t bytes) {
  if (state.stagingBytes < bytes) {
    if (state.staging)
      SUMMA_CUDA_CHECK(cudaFreeHost(state.staging));
    state.staging = nullptr;
    size_t rounded = std::max(bytes, state.stagingBytes * 2);
    SUMMA_CUDA_CHECK(cudaMallocHost(&state.staging, rounded));
    state.stagingBytes = rounded;
  }
  return state.staging;
}

//===----------------------------------------------------------------------===//
// C++ API (GpuRuntime.h)
//===----------------------------------------------------------------------===//

CollectiveMode summa::gpu::collectiveMode() {
  return context("collectiveMode").mode;
}

const DeviceInfo &summa::gpu::deviceInfo() {
  return context("deviceInfo").info;
}

cudaStream_t summa::gpu::computeStream() {
  return context("computeStream").compute;
}

cudaStream_t summa::gpu::commStream() { return context("commStream").comm; }

void summa::gpu::synchronize() {
  Context &ctx = context("synchronize");
  waitStream(ctx.comm, "the communication stream");
  waitStream(ctx.compute, "the compute stream");
}

GemmEngine summa::gpu::gemmEngine() { return context("gemmEngine").engine; }

void summa::gpu::setGemmEngine(GemmEngine engine) {
  context("setGemmEngine").engine = engine;
}

bool summa::gpu::tf32Allowed() { return context("tf32Allowed").allowTf32; }

void summa::gpu::setTf32Allowed(bool allowed) {
  context("setTf32Allowed").allowTf32 = allowed;
}

//===----------------------------------------------------------------------===//
// Profile
//===----------------------------------------------------------------------===//

namespace {
struct TimedOp {
  bool matmul;
  /// A matmul counted among the local GEMMs (LocalMatmulScope).
  bool local;
  summa::rt::CollectiveKind kind;
  int32_t mask;
  int64_t amount;
  cudaEvent_t start;
  cudaEvent_t stop;
  bool async;
};
std::vector<TimedOp> timedOps;
int profileMode = -1; // -1 unknown, 0 untimed, 1 timed

void recordTimed(const TimedOp &op, double seconds) {
  if (!op.matmul) {
    summa::rt::recordCollective(op.kind, op.mask, op.amount, seconds, op.async);
    return;
  }
  // The scope the matmul was issued in, again at its resolution.
  std::optional<summa::rt::LocalMatmulScope> local;
  if (op.local)
    local.emplace();
  summa::rt::recordMatmul(op.amount, seconds);
}

/// Adds the finished operations at the front of the list; with `all`, waits
/// for every one.
void resolveTimedOps(bool all) {
  size_t done = 0;
  for (; done < timedOps.size(); ++done) {
    TimedOp &op = timedOps[done];
    if (all) {
      SUMMA_CUDA_CHECK(cudaEventSynchronize(op.stop));
    } else {
      cudaError_t status = cudaEventQuery(op.stop);
      if (status == cudaErrorNotReady) {
        clearNotReady();
        break;
      }
      SUMMA_CUDA_CHECK(status);
    }
    float milliseconds = 0;
    SUMMA_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, op.start, op.stop));
    recordTimed(op, milliseconds * 1e-3);
    releaseEvent(op.start, /*timing=*/true);
    releaseEvent(op.stop, /*timing=*/true);
  }
  timedOps.erase(timedOps.begin(), timedOps.begin() + done);
}
} // namespace

bool summa::gpu::profileTimed() {
  if (profileMode < 0) {
    const char *path = std::getenv("SUMMA_PROFILE");
    profileMode = path && *path ? 1 : 0;
  }
  return profileMode == 1;
}

void summa::gpu::flushProfile() {
  if (!timedOps.empty())
    resolveTimedOps(/*all=*/true);
}

ProfileSpan::ProfileSpan(cudaStream_t stream) : stream(stream) {
  hostStart = summa::rt::profileClock();
  if (profileTimed()) {
    start = acquireEvent(/*timing=*/true);
    SUMMA_CUDA_CHECK(cudaEventRecord(start, stream));
  }
}

void ProfileSpan::endCollective(summa::rt::CollectiveKind kind, int32_t mask,
                                int64_t bytes, bool async) {
  if (state.mode == CollectiveMode::Mpi) {
    // Synchronous: the host clock is the collective's time.
    if (start)
      releaseEvent(start, /*timing=*/true);
    summa::rt::recordCollective(kind, mask, bytes,
                                summa::rt::profileClock() - hostStart, async);
    return;
  }
  if (!start) {
    summa::rt::recordCollective(kind, mask, bytes, 0.0, async);
    return;
  }
  cudaEvent_t stop = acquireEvent(/*timing=*/true);
  SUMMA_CUDA_CHECK(cudaEventRecord(stop, stream));
  timedOps.push_back({false, false, kind, mask, bytes, start, stop, async});
  if (timedOps.size() >= 256)
    resolveTimedOps(/*all=*/false);
}

void ProfileSpan::endMatmul(int64_t flops) {
  if (!start) {
    summa::rt::recordMatmul(flops, 0.0);
    return;
  }
  cudaEvent_t stop = acquireEvent(/*timing=*/true);
  SUMMA_CUDA_CHECK(cudaEventRecord(stop, stream));
  timedOps.push_back({true, summa::rt::matmulsAreLocal(),
                      summa::rt::CollectiveKind::Broadcast, 0, flops, start,
                      stop, false});
  if (timedOps.size() >= 256)
    resolveTimedOps(/*all=*/false);
}

//===----------------------------------------------------------------------===//
// Life cycle (C ABI)
//===----------------------------------------------------------------------===//

void summaRtInit(int *argc, char ***argv, int64_t q, int64_t d) {
  if (summa::rt::alreadyInitialised(q, d))
    return;
  GridState &g = gridState;

  // Before any GPU is touched: MPI, the grid and the world size, as on the
  // CPU. From here a fatal error also aborts this rank's NCCL communicators.
  summa::rt::setBeforeAbort(abortCommunicators);
  int rank = 0, size = 0;
  summa::rt::startWorld(argc, argv, q, d, &rank, &size);

  g.worldRank = rank;
  g.worldSize = size;
  g.q = q;
  g.d = d;
  coordsOfWorldRank(q, rank, g.coords);
  for (int mask = 1; mask < kNumMasks; ++mask) {
    g.groups[mask].size = static_cast<int>(groupSizeOf(q, d, mask));
    g.groups[mask].rank = static_cast<int>(groupIndexOf(q, d, g.coords, mask));
  }

  state.mode = modeFromEnvironment();
  state.timeoutSeconds = timeoutFromEnvironment();
  selectDevice("summaRtInit");
  createStreams();
  poolCreate();
  createBlas();
  if (state.mode == CollectiveMode::Mpi)
    buildMpiGroups();
  else
    buildNcclGroups();
  state.ready = true;
  g.initialised = true;
}

void summaRtFinalize(void) {
  summa::rt::requireInitialised("summaRtFinalize");
  // As in the CPU backend: a request in flight still owns its buffer.
  if (size_t inFlight = summa::rt::requestsInFlight())
    summa::rt::fatal("%s",
                     summa::rt::requestsNeverWaitedMessage(inFlight).c_str());
  summa::gpu::synchronize();
  flushProfile();
  bool profileWritten = summa::rt::writeProfileIfRequested();

  // Communicators: children first, the world last; ncclCommFinalize flushes
  // what is still queued (collective over each communicator, which every
  // rank reaches here in the same order).
  for (ncclComm_t comm : distinctComms()) {
    SUMMA_NCCL_CHECK(ncclCommFinalize(comm));
    SUMMA_NCCL_CHECK(ncclCommDestroy(comm));
  }
  state.world = nullptr;
  for (ncclComm_t &comm : state.comms)
    comm = nullptr;
  for (Group &group : gridState.groups)
    if (group.comm != MPI_COMM_NULL)
      SUMMA_MPI_CHECK(MPI_Comm_free(&group.comm));
  summa::gpu::host::freeOps();

  releaseGemmPlans();
  SUMMA_CUBLAS_CHECK(cublasLtDestroy(state.lt));
  SUMMA_CUBLAS_CHECK(cublasDestroy(state.cublas));
  poolDestroy();
  for (cudaEvent_t event : state.freeEvents)
    SUMMA_CUDA_CHECK(cudaEventDestroy(event));
  for (cudaEvent_t event : state.freeTimingEvents)
    SUMMA_CUDA_CHECK(cudaEventDestroy(event));
  SUMMA_CUDA_CHECK(cudaEventDestroy(state.computeReady));
  SUMMA_CUDA_CHECK(cudaStreamDestroy(state.comm));
  SUMMA_CUDA_CHECK(cudaStreamDestroy(state.compute));
  if (state.staging)
    SUMMA_CUDA_CHECK(cudaFreeHost(state.staging));

  state = Context();
  summa::rt::finishFinalize(profileWritten);
}

void summaRtSynchronize(void) { summa::gpu::synchronize(); }

void *summaRtComputeStream(void) {
  return context("summaRtComputeStream").compute;
}

//===----------------------------------------------------------------------===//
// For the runtime's own kernels (Fill.cu, Epilogue.cu)
//===----------------------------------------------------------------------===//

namespace summa::gpu {
int kernelMultiprocessors() { return state.info.multiprocessors; }
} // namespace summa::gpu
