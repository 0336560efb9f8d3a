//===- Collectives.cpp - collectives of the GPU backend ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The collectives of the C ABI and their asynchronous forms (GpuRuntime.h).
//
// NCCL mode: the communication stream waits (event) for the work queued on
// the compute stream, runs the NCCL call there, and records a completion
// event in the handle; wait() makes the compute stream wait for it. The
// shape-changing collectives rearrange [outer, n, inner] <-> [n, outer,
// inner] with 2-D copies through pool scratch on the communication stream,
// and copy a source that overlaps the destination (except in NCCL's own
// in-place layout), as the CPU backend does.
//
// MPI mode (SUMMA_GPU_COLLECTIVES=mpi, for tests on one GPU): the compute
// stream is drained, the data copied to pinned host memory, the CPU
// algorithm of HostCollectives.cpp run, and the result copied back, all
// before the start returns.
//
// Arguments are checked first, as in the CPU backend; groups of one rank
// then return (after a copy for the shape-changing collectives) and are not
// profiled.
//
// summaRtBroadcastStart / summaRtReduceStart keep the started collective's
// handle in a RequestTable under the id they return; summaRtWait takes it
// out and waits as wait() does (compute stream only).
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "Grid.h"
#include "HostBlocks.h"
#include "HostCollectives.h"
#include "Profile.h"
#include "RequestTable.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

#include <sched.h>
#include <unistd.h>

#include <optional>
#include <utility>

using namespace summa::gpu;
using summa::rt::CollectiveKind;
using summa::rt::Group;
using summa::rt::overlaps;

namespace {

ncclDataType_t ncclType(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F64:
    return ncclFloat64;
  case SUMMA_DT_F16:
    return ncclFloat16;
  case SUMMA_DT_BF16:
    return ncclBfloat16;
  case SUMMA_DT_I64:
    return ncclInt64;
  case SUMMA_DT_I32:
    return ncclInt32;
  default:
    return ncclFloat32;
  }
}

ncclRedOp_t ncclOp(int32_t kind) {
  switch (kind) {
  case SUMMA_RED_MAX:
    return ncclMax;
  case SUMMA_RED_MIN:
    return ncclMin;
  case SUMMA_RED_PROD:
    return ncclProd;
  default:
    return ncclSum;
  }
}

char *elementPointer(intptr_t base, int64_t offset, const GpuDType &type) {
  return reinterpret_cast<char *>(base) +
         offset * static_cast<int64_t>(type.size);
}

/// The communication stream waits for what is queued on the compute stream.
void joinCompute(Context &ctx) {
  SUMMA_CUDA_CHECK(cudaEventRecord(ctx.computeReady, ctx.compute));
  SUMMA_CUDA_CHECK(cudaStreamWaitEvent(ctx.comm, ctx.computeReady, 0));
}

CollectiveHandle finishOnComm(Context &ctx) {
  cudaEvent_t done = acquireEvent();
  SUMMA_CUDA_CHECK(cudaEventRecord(done, ctx.comm));
  return CollectiveHandle(done);
}

void toHost(Context &ctx, void *host, const void *device, int64_t bytes) {
  if (bytes <= 0)
    return;
  SUMMA_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost,
                                   ctx.compute));
  waitStream(ctx.compute, "a copy to the host staging buffer");
}

void toDevice(Context &ctx, void *device, const void *host, int64_t bytes) {
  if (bytes <= 0)
    return;
  SUMMA_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice,
                                   ctx.compute));
  // The staging buffer is reused by the next collective.
  waitStream(ctx.compute, "a copy from the host staging buffer");
}

/// The MPI test mode of a reshaping collective: `srcBytes` of src to the host
/// staging buffer, `exchange(hostSrc, hostDst)` there, `dstBytes` back to dst.
template <typename Exchange>
void throughHost(Context &ctx, const char *src, int64_t srcBytes, char *dst,
                 int64_t dstBytes, Exchange exchange) {
  char *host = static_cast<char *>(stagingBuffer(srcBytes + dstBytes));
  toHost(ctx, host, src, srcBytes);
  exchange(host, host + srcBytes);
  toDevice(ctx, dst, host + srcBytes, dstBytes);
}

/// Scratch from the pool, ordered on the communication stream, for a
/// collective whose source overlaps its destination or must be reordered;
/// released with poolRelease(scratch, ctx.comm, caller).
char *commScratch(Context &ctx, int64_t bytes, const char *caller) {
  return static_cast<char *>(poolAllocate(bytes, ctx.comm, caller));
}

/// Moves the `n` member blocks of a reshaping collective, each `outer` rows
/// of `rowBytes`, between [n, outer, row] (NCCL's layout: a member's block
/// contiguous) and [outer, n, row] (the collective's: blocks side by side in
/// each row), on the communication stream.
void reorderBlocks(Context &ctx, char *dst, const char *src, int64_t n,
                   int64_t outer, int64_t rowBytes, bool toSideBySide) {
  int64_t contiguousPitch = rowBytes, sideBySidePitch = n * rowBytes;
  for (int64_t r = 0; r < n; ++r) {
    int64_t contiguous = r * outer * rowBytes, sideBySide = r * rowBytes;
    if (toSideBySide)
      SUMMA_CUDA_CHECK(cudaMemcpy2DAsync(
          dst + sideBySide, sideBySidePitch, src + contiguous, contiguousPitch,
          rowBytes, outer, cudaMemcpyDeviceToDevice, ctx.comm));
    else
      SUMMA_CUDA_CHECK(cudaMemcpy2DAsync(
          dst + contiguous, contiguousPitch, src + sideBySide, sideBySidePitch,
          rowBytes, outer, cudaMemcpyDeviceToDevice, ctx.comm));
  }
}

/// A device-to-device copy on the compute stream (groups of one rank).
void copyLocal(Context &ctx, char *dst, const char *src, int64_t bytes) {
  if (bytes <= 0 || dst == src)
    return;
  if (overlaps(src, bytes, dst, bytes)) {
    void *scratch = poolAllocate(bytes, ctx.compute, "collective scratch");
    SUMMA_CUDA_CHECK(cudaMemcpyAsync(scratch, src, bytes,
                                     cudaMemcpyDeviceToDevice, ctx.compute));
    SUMMA_CUDA_CHECK(cudaMemcpyAsync(dst, scratch, bytes,
                                     cudaMemcpyDeviceToDevice, ctx.compute));
    poolRelease(scratch, ctx.compute, "collective scratch");
    return;
  }
  SUMMA_CUDA_CHECK(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, ctx.compute));
}

//===----------------------------------------------------------------------===//
// Implementations on checked arguments
//===----------------------------------------------------------------------===//

CollectiveHandle broadcastImpl(Context &ctx, char *data, int64_t count,
                               const GpuDType &type, int32_t mask,
                               const Group &group, int64_t root, bool async) {
  if (group.size == 1)
    return {};
  int64_t bytes = count * static_cast<int64_t>(type.size);
  if (ctx.mode == CollectiveMode::Mpi) {
    ProfileSpan span(ctx.compute);
    void *host = stagingBuffer(bytes);
    if (group.rank == root)
      toHost(ctx, host, data, bytes);
    host::broadcast(host, count, type.dtype, static_cast<int>(root),
                    group.comm);
    if (group.rank != root)
      toDevice(ctx, data, host, bytes);
    span.endCollective(CollectiveKind::Broadcast, mask, bytes, async);
    return {};
  }
  joinCompute(ctx);
  ProfileSpan span(ctx.comm);
  if (count > 0)
    SUMMA_NCCL_CHECK(ncclBroadcast(data, data, count, ncclType(type.dtype),
                                   static_cast<int>(root), ctx.comms[mask],
                                   ctx.comm));
  span.endCollective(CollectiveKind::Broadcast, mask, bytes, async);
  return finishOnComm(ctx);
}

CollectiveHandle reduceImpl(Context &ctx, char *data, int64_t count,
                            const GpuDType &type, int32_t mask,
                            const Group &group, int64_t root, int32_t kind,
                            bool async) {
  if (group.size == 1)
    return {};
  int64_t bytes = count * static_cast<int64_t>(type.size);
  if (ctx.mode == CollectiveMode::Mpi) {
    ProfileSpan span(ctx.compute);
    void *host = stagingBuffer(bytes);
    toHost(ctx, host, data, bytes);
    host::reduce(host, count, type.dtype, kind, static_cast<int>(root),
                 group.rank, group.comm);
    if (group.rank == root)
      toDevice(ctx, data, host, bytes);
    span.endCollective(CollectiveKind::Reduce, mask, bytes, async);
    return {};
  }
  joinCompute(ctx);
  ProfileSpan span(ctx.comm);
  // In place: NCCL writes the receive buffer on the root only.
  if (count > 0)
    SUMMA_NCCL_CHECK(ncclReduce(data, data, count, ncclType(type.dtype),
                                ncclOp(kind), static_cast<int>(root),
                                ctx.comms[mask], ctx.comm));
  span.endCollective(CollectiveKind::Reduce, mask, bytes, async);
  return finishOnComm(ctx);
}

CollectiveHandle allReduceImpl(Context &ctx, char *data, int64_t count,
                               const GpuDType &type, int32_t mask,
                               const Group &group, int32_t kind) {
  if (group.size == 1)
    return {};
  int64_t bytes = count * static_cast<int64_t>(type.size);
  if (ctx.mode == CollectiveMode::Mpi) {
    ProfileSpan span(ctx.compute);
    void *host = stagingBuffer(bytes);
    toHost(ctx, host, data, bytes);
    host::allReduce(host, count, type.dtype, kind, group.comm);
    toDevice(ctx, data, host, bytes);
    span.endCollective(CollectiveKind::AllReduce, mask, bytes);
    return {};
  }
  joinCompute(ctx);
  ProfileSpan span(ctx.comm);
  if (count > 0)
    SUMMA_NCCL_CHECK(ncclAllReduce(data, data, count, ncclType(type.dtype),
                                   ncclOp(kind), ctx.comms[mask], ctx.comm));
  span.endCollective(CollectiveKind::AllReduce, mask, bytes);
  return finishOnComm(ctx);
}

CollectiveHandle allGatherImpl(Context &ctx, const char *src, char *dst,
                               int64_t outer, int64_t inner,
                               const GpuDType &type, int32_t mask,
                               const Group &group) {
  const char *caller = "summaRtAllGather";
  int64_t n = group.size;
  int64_t block = outer * inner;
  int64_t blockBytes = block * static_cast<int64_t>(type.size);
  if (n == 1) {
    copyLocal(ctx, dst, src, blockBytes);
    return {};
  }
  if (ctx.mode == CollectiveMode::Mpi) {
    ProfileSpan span(ctx.compute);
    throughHost(ctx, src, blockBytes, dst, n * blockBytes,
                [&](char *hostSrc, char *hostDst) {
                  host::allGather(hostSrc, hostDst, outer, inner, type.dtype,
                                  static_cast<int>(n), group.comm);
                });
    span.endCollective(CollectiveKind::AllGather, mask, blockBytes);
    return {};
  }
  joinCompute(ctx);
  ProfileSpan span(ctx.comm);
  ncclComm_t comm = ctx.comms[mask];
  ncclDataType_t dataType = ncclType(type.dtype);
  if (block > 0) {
    // NCCL gathers [n, block]. Where that is not the destination's layout
    // ([outer, n * inner] with outer > 1), gather into scratch and reorder;
    // otherwise NCCL allows one overlap, its in-place form (src is this
    // rank's block of dst), and any other overlapping source is copied.
    bool reorder = outer != 1;
    bool inPlace = src == dst + group.rank * blockBytes;
    char *scratch = nullptr;
    const char *send = src;
    if (reorder) {
      scratch = commScratch(ctx, n * blockBytes, caller);
    } else if (!inPlace && overlaps(src, blockBytes, dst, n * blockBytes)) {
      scratch = commScratch(ctx, blockBytes, caller);
      SUMMA_CUDA_CHECK(cudaMemcpyAsync(scratch, src, blockBytes,
                                       cudaMemcpyDeviceToDevice, ctx.comm));
      send = scratch;
    }
    SUMMA_NCCL_CHECK(ncclAllGather(send, reorder ? scratch : dst, block,
                                   dataType, comm, ctx.comm));
    if (reorder)
      reorderBlocks(ctx, dst, scratch, n, outer,
                    inner * static_cast<int64_t>(type.size),
                    /*toSideBySide=*/true);
    if (scratch)
      poolRelease(scratch, ctx.comm, caller);
  }
  span.endCollective(CollectiveKind::AllGather, mask, blockBytes);
  return finishOnComm(ctx);
}

CollectiveHandle reduceScatterImpl(Context &ctx, const char *src, char *dst,
                                   int64_t outer, int64_t inner,
                                   const GpuDType &type, int32_t mask,
                                   const Group &group, int32_t kind) {
  const char *caller = "summaRtReduceScatter";
  int64_t n = group.size;
  int64_t block = outer * inner;
  int64_t blockBytes = block * static_cast<int64_t>(type.size);
  if (n == 1) {
    copyLocal(ctx, dst, src, blockBytes);
    return {};
  }
  if (ctx.mode == CollectiveMode::Mpi) {
    ProfileSpan span(ctx.compute);
    throughHost(ctx, src, n * blockBytes, dst, blockBytes,
                [&](char *hostSrc, char *hostDst) {
                  host::reduceScatter(hostSrc, hostDst, outer, inner,
                                      type.dtype, kind, static_cast<int>(n),
                                      group.comm);
                });
    span.endCollective(CollectiveKind::ReduceScatter, mask, blockBytes);
    return {};
  }
  joinCompute(ctx);
  ProfileSpan span(ctx.comm);
  ncclComm_t comm = ctx.comms[mask];
  ncclDataType_t dataType = ncclType(type.dtype);
  if (block > 0) {
    // NCCL scatters [n, block]: a source of [outer, n * inner] with
    // outer > 1 is reordered into scratch first; an overlapping source other
    // than NCCL's in-place form (dst is this rank's block of src) is copied.
    bool inPlace = outer == 1 && dst == src + group.rank * blockBytes;
    char *scratch = nullptr;
    if (outer != 1) {
      scratch = commScratch(ctx, n * blockBytes, caller);
      reorderBlocks(ctx, scratch, src, n, outer,
                    inner * static_cast<int64_t>(type.size),
                    /*toSideBySide=*/false);
    } else if (!inPlace && overlaps(src, n * blockBytes, dst, blockBytes)) {
      scratch = commScratch(ctx, n * blockBytes, caller);
      SUMMA_CUDA_CHECK(cudaMemcpyAsync(scratch, src, n * blockBytes,
                                       cudaMemcpyDeviceToDevice, ctx.comm));
    }
    SUMMA_NCCL_CHECK(ncclReduceScatter(scratch ? scratch : src, dst, block,
                                       dataType, ncclOp(kind), comm, ctx.comm));
    if (scratch)
      poolRelease(scratch, ctx.comm, caller);
  }
  span.endCollective(CollectiveKind::ReduceScatter, mask, blockBytes);
  return finishOnComm(ctx);
}

//===----------------------------------------------------------------------===//
// Argument checks shared by the C ABI and the C++ API
//===----------------------------------------------------------------------===//

struct Checked {
  Context *ctx;
  GpuDType type;
  const Group *group;
};

Checked checkCommon(const char *caller, int32_t dtype, int32_t mask) {
  Context &ctx = context(caller);
  Checked checked{&ctx, {}, nullptr};
  requireValid(checkDType(caller, dtype, &checked.type, /*allowInt=*/true));
  checked.group = &summa::rt::groupFor(mask, caller);
  return checked;
}

/// `async`: counted in the profile as a non-blocking start (summaRt*Start).
CollectiveHandle broadcastChecked(const char *caller, intptr_t base,
                                  int64_t offset, int64_t count, int32_t dtype,
                                  int32_t mask, int64_t root,
                                  bool async = false) {
  Checked c = checkCommon(caller, dtype, mask);
  requireValid(checkBuffer(caller, "buffer", base, offset, count));
  requireValid(checkRoot(caller, root, c.group->size));
  return broadcastImpl(*c.ctx, elementPointer(base, offset, c.type), count,
                       c.type, mask, *c.group, root, async);
}

CollectiveHandle reduceChecked(const char *caller, intptr_t base,
                               int64_t offset, int64_t count, int32_t dtype,
                               int32_t mask, int64_t root, int32_t kind,
                               bool async = false) {
  Checked c = checkCommon(caller, dtype, mask);
  requireValid(checkBuffer(caller, "buffer", base, offset, count));
  requireValid(checkRoot(caller, root, c.group->size));
  requireValid(checkReduction(caller, kind));
  return reduceImpl(*c.ctx, elementPointer(base, offset, c.type), count, c.type,
                    mask, *c.group, root, kind, async);
}

CollectiveHandle allReduceChecked(const char *caller, intptr_t base,
                                  int64_t offset, int64_t count, int32_t dtype,
                                  int32_t mask, int32_t kind) {
  Checked c = checkCommon(caller, dtype, mask);
  requireValid(checkBuffer(caller, "buffer", base, offset, count));
  requireValid(checkReduction(caller, kind));
  return allReduceImpl(*c.ctx, elementPointer(base, offset, c.type), count,
                       c.type, mask, *c.group, kind);
}

CollectiveHandle allGatherChecked(const char *caller, intptr_t srcBase,
                                  int64_t srcOffset, intptr_t dstBase,
                                  int64_t dstOffset, int64_t outer,
                                  int64_t inner, int32_t dtype, int32_t mask) {
  Checked c = checkCommon(caller, dtype, mask);
  int64_t block = 0;
  requireValid(checkBlock(caller, outer, inner, c.group->size, &block));
  requireValid(checkBuffer(caller, "source", srcBase, srcOffset, block));
  requireValid(checkBuffer(caller, "destination", dstBase, dstOffset,
                           c.group->size * block));
  return allGatherImpl(*c.ctx, elementPointer(srcBase, srcOffset, c.type),
                       elementPointer(dstBase, dstOffset, c.type), outer, inner,
                       c.type, mask, *c.group);
}

CollectiveHandle reduceScatterChecked(const char *caller, intptr_t srcBase,
                                      int64_t srcOffset, intptr_t dstBase,
                                      int64_t dstOffset, int64_t outer,
                                      int64_t inner, int32_t dtype,
                                      int32_t mask, int32_t kind) {
  Checked c = checkCommon(caller, dtype, mask);
  int64_t block = 0;
  requireValid(checkBlock(caller, outer, inner, c.group->size, &block));
  requireValid(
      checkBuffer(caller, "source", srcBase, srcOffset, c.group->size * block));
  requireValid(checkBuffer(caller, "destination", dstBase, dstOffset, block));
  requireValid(checkReduction(caller, kind));
  return reduceScatterImpl(*c.ctx, elementPointer(srcBase, srcOffset, c.type),
                           elementPointer(dstBase, dstOffset, c.type), outer,
                           inner, c.type, mask, *c.group, kind);
}

intptr_t address(const void *pointer) {
  return reinterpret_cast<intptr_t>(pointer);
}

/// A collective started through the C ABI and not yet waited for.
struct PendingCollective {
  CollectiveHandle handle;
  CollectiveKind kind = CollectiveKind::Broadcast;
  int32_t mask = 0;
  /// Whether the start was counted (then the wait's time is added too).
  bool counted = false;
};

/// The requests in flight. Never destroyed: a handle left in it at exit
/// (after a fatal error) must not touch CUDA from a static destructor.
summa::rt::RequestTable<PendingCollective> &pendingCollectives() {
  static auto *table = new summa::rt::RequestTable<PendingCollective>();
  return *table;
}

/// The C ABI's handle of a started collective: 0 for a group of one rank
/// (nothing was started or counted), else a new request id.
int64_t fileRequest(CollectiveHandle handle, CollectiveKind kind, int32_t mask,
                    bool counted) {
  if (summa::rt::grid().groups[mask].size == 1)
    return 0;
  PendingCollective pending;
  pending.handle = std::move(handle);
  pending.kind = kind;
  pending.mask = mask;
  pending.counted = counted;
  return pendingCollectives().add(std::move(pending));
}
} // namespace

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

CollectiveHandle &
CollectiveHandle::operator=(CollectiveHandle &&other) noexcept {
  if (this != &other) {
    if (done)
      summa::gpu::wait(*this);
    done = other.done;
    other.done = nullptr;
  }
  return *this;
}

CollectiveHandle::~CollectiveHandle() {
  // After summaRtFinalize the event is gone with the context.
  if (done && contextState().ready)
    summa::gpu::wait(*this);
}

void summa::gpu::wait(CollectiveHandle &handle) {
  if (!handle.done)
    return;
  Context &ctx = context("wait");
  SUMMA_CUDA_CHECK(cudaStreamWaitEvent(ctx.compute, handle.done, 0));
  // Safe to re-record at once: cudaStreamWaitEvent captured its state.
  releaseEvent(handle.done);
  handle.done = nullptr;
}

void summa::gpu::waitHost(CollectiveHandle &handle) {
  if (!handle.done)
    return;
  Context &ctx = context("waitHost");
  double start = summa::rt::profileClock();
  for (int polls = 0;; ++polls) {
    cudaError_t status = cudaEventQuery(handle.done);
    if (status == cudaSuccess)
      break;
    if (status != cudaErrorNotReady)
      cudaCallFailed("cudaEventQuery(handle.done)", __FILE__, __LINE__, status);
    clearNotReady();
    checkAsyncErrors();
    if (ctx.timeoutSeconds > 0 &&
        summa::rt::profileClock() - start > ctx.timeoutSeconds)
      summa::rt::fatal("timed out after %g s waiting for a collective "
                       "(SUMMA_GPU_TIMEOUT_S); a peer rank may have failed",
                       ctx.timeoutSeconds);
    if (polls < 1000)
      sched_yield();
    else
      usleep(50);
  }
  wait(handle);
}

//===----------------------------------------------------------------------===//
// C++ API
//===----------------------------------------------------------------------===//

CollectiveHandle summa::gpu::startBroadcast(void *data, int64_t count,
                                            int32_t dtype, int32_t axesMask,
                                            int64_t root) {
  return broadcastChecked("startBroadcast", address(data), 0, count, dtype,
                          axesMask, root);
}

CollectiveHandle summa::gpu::startReduce(void *data, int64_t count,
                                         int32_t dtype, int32_t axesMask,
                                         int64_t root, int32_t kind) {
  return reduceChecked("startReduce", address(data), 0, count, dtype, axesMask,
                       root, kind);
}

CollectiveHandle summa::gpu::startAllReduce(void *data, int64_t count,
                                            int32_t dtype, int32_t axesMask,
                                            int32_t kind) {
  return allReduceChecked("startAllReduce", address(data), 0, count, dtype,
                          axesMask, kind);
}

CollectiveHandle summa::gpu::startAllGather(const void *src, void *dst,
                                            int64_t outer, int64_t inner,
                                            int32_t dtype, int32_t axesMask) {
  return allGatherChecked("startAllGather", address(src), 0, address(dst), 0,
                          outer, inner, dtype, axesMask);
}

CollectiveHandle summa::gpu::startReduceScatter(const void *src, void *dst,
                                                int64_t outer, int64_t inner,
                                                int32_t dtype, int32_t axesMask,
                                                int32_t kind) {
  return reduceScatterChecked("startReduceScatter", address(src), 0,
                              address(dst), 0, outer, inner, dtype, axesMask,
                              kind);
}

//===----------------------------------------------------------------------===//
// C ABI: start, then order the compute stream after it
//===----------------------------------------------------------------------===//

void summaRtBroadcast(intptr_t base, int64_t offset, int64_t count,
                      int32_t dtype, int32_t axesMask, int64_t root) {
  CollectiveHandle handle = broadcastChecked("summaRtBroadcast", base, offset,
                                             count, dtype, axesMask, root);
  wait(handle);
}

void summaRtReduce(intptr_t base, int64_t offset, int64_t count, int32_t dtype,
                   int32_t axesMask, int64_t root, int32_t kind) {
  CollectiveHandle handle = reduceChecked("summaRtReduce", base, offset, count,
                                          dtype, axesMask, root, kind);
  wait(handle);
}

int64_t summaRtBroadcastStart(intptr_t base, int64_t offset, int64_t count,
                              int32_t dtype, int32_t axesMask, int64_t root) {
  bool counted = summa::rt::profileRecording();
  CollectiveHandle handle =
      broadcastChecked("summaRtBroadcastStart", base, offset, count, dtype,
                       axesMask, root, /*async=*/true);
  return fileRequest(std::move(handle), CollectiveKind::Broadcast, axesMask,
                     counted);
}

int64_t summaRtReduceStart(intptr_t base, int64_t offset, int64_t count,
                           int32_t dtype, int32_t axesMask, int64_t root,
                           int32_t kind) {
  bool counted = summa::rt::profileRecording();
  CollectiveHandle handle =
      reduceChecked("summaRtReduceStart", base, offset, count, dtype, axesMask,
                    root, kind, /*async=*/true);
  return fileRequest(std::move(handle), CollectiveKind::Reduce, axesMask,
                     counted);
}

void summaRtWait(int64_t request) {
  if (request == 0)
    return;
  std::optional<PendingCollective> pending = pendingCollectives().take(request);
  if (!pending)
    summa::rt::fatal("%s",
                     summa::rt::requestNotInFlightMessage(request).c_str());
  double start = summa::rt::profileClock();
  // The compute stream waits for the collective; the host does not.
  wait(pending->handle);
  if (pending->counted)
    summa::rt::recordCollectiveWait(pending->kind, pending->mask,
                                    summa::rt::profileClock() - start);
}

size_t summa::rt::requestsInFlight() { return pendingCollectives().size(); }

void summaRtAllReduce(intptr_t base, int64_t offset, int64_t count,
                      int32_t dtype, int32_t axesMask, int32_t kind) {
  CollectiveHandle handle = allReduceChecked("summaRtAllReduce", base, offset,
                                             count, dtype, axesMask, kind);
  wait(handle);
}

void summaRtAllGather(intptr_t srcBase, int64_t srcOffset, intptr_t dstBase,
                      int64_t dstOffset, int64_t outer, int64_t inner,
                      int32_t dtype, int32_t axesMask) {
  CollectiveHandle handle =
      allGatherChecked("summaRtAllGather", srcBase, srcOffset, dstBase,
                       dstOffset, outer, inner, dtype, axesMask);
  wait(handle);
}

void summaRtReduceScatter(intptr_t srcBase, int64_t srcOffset, intptr_t dstBase,
                          int64_t dstOffset, int64_t outer, int64_t inner,
                          int32_t dtype, int32_t axesMask, int32_t kind) {
  CollectiveHandle handle =
      reduceScatterChecked("summaRtReduceScatter", srcBase, srcOffset, dstBase,
                           dstOffset, outer, inner, dtype, axesMask, kind);
  wait(handle);
}
