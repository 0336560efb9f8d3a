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
#include "GridState.h"
#include "HostBlocks.h"
#include "HostCollectives.h"
#include "Profile.h"
#include "RequestTable.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

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

/// A copy between the device and the host staging buffer on the compute
/// stream, complete on return: the host reads the staged data at once, and
/// the next collective reuses the buffer.
void copyStaging(Context &ctx, void *dst, const void *src, int64_t bytes,
                 cudaMemcpyKind kind) {
  if (bytes <= 0)
    return;
  SUMMA_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, ctx.compute));
  waitStream(ctx.compute, kind == cudaMemcpyDeviceToHost
                              ? "a copy to the host staging buffer"
                              : "a copy from the host staging buffer");
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
// Checked calls
//===----------------------------------------------------------------------===//

/// What every collective checks first: the runtime is initialised, the
/// element type, the axes mask.
struct Checked {
  Checked(const char *caller, int32_t dtype, int32_t mask)
      : ctx(context(caller)), mask(mask) {
    requireValid(checkDType(caller, dtype, &type, /*allowInt=*/true));
    group = &summa::rt::groupFor(mask, caller);
  }

  Context &ctx;
  GpuDType type = {};
  int32_t mask;
  const Group *group = nullptr;
};

/// A checked in-place collective (broadcast, reduce, all-reduce): `count`
/// elements at `data`.
struct InPlace : Checked {
  InPlace(const char *caller, intptr_t base, int64_t offset, int64_t count,
          int32_t dtype, int32_t mask)
      : Checked(caller, dtype, mask), count(count) {
    requireValid(checkBuffer(caller, "buffer", base, offset, count));
    data = elementPointer(base, offset, type);
  }

  int64_t bytes() const { return count * static_cast<int64_t>(type.size); }

  char *data = nullptr;
  int64_t count;
};

/// A checked reshaping collective (all-gather, reduce-scatter): this
/// member's block of [outer, inner] and the whole of n blocks; the source is
/// the whole with `srcWhole` (reduce-scatter), the destination otherwise
/// (all-gather).
struct Blocks : Checked {
  Blocks(const char *caller, intptr_t srcBase, int64_t srcOffset, bool srcWhole,
         intptr_t dstBase, int64_t dstOffset, int64_t outer, int64_t inner,
         int32_t dtype, int32_t mask)
      : Checked(caller, dtype, mask), outer(outer), inner(inner) {
    int64_t n = group->size;
    requireValid(checkBlock(caller, outer, inner, n, &block));
    requireValid(checkBuffer(caller, "source", srcBase, srcOffset,
                             srcWhole ? n * block : block));
    requireValid(checkBuffer(caller, "destination", dstBase, dstOffset,
                             srcWhole ? block : n * block));
    src = elementPointer(srcBase, srcOffset, type);
    dst = elementPointer(dstBase, dstOffset, type);
    blockBytes = block * static_cast<int64_t>(type.size);
    srcBytes = srcWhole ? n * blockBytes : blockBytes;
    dstBytes = srcWhole ? blockBytes : n * blockBytes;
  }

  int64_t outer, inner;
  int64_t block = 0;
  const char *src = nullptr;
  char *dst = nullptr;
  int64_t blockBytes = 0, srcBytes = 0, dstBytes = 0;
};

//===----------------------------------------------------------------------===//
// Running checked calls
//===----------------------------------------------------------------------===//

/// What every collective over more than one rank does, profiled as `kind`
/// over `bytes` (`async`: started by summaRt*Start). MPI mode: `viaHost()`
/// runs it through the host staging buffer before returning. NCCL mode: the
/// communication stream waits for the compute stream, `viaNccl(comm)` queues
/// the collective there, and the handle completes with it.
template <typename ViaHost, typename ViaNccl>
CollectiveHandle runCollective(const Checked &c, CollectiveKind kind,
                               int64_t bytes, bool async, ViaHost viaHost,
                               ViaNccl viaNccl) {
  Context &ctx = c.ctx;
  if (ctx.mode == CollectiveMode::Mpi) {
    ProfileSpan span(ctx.compute);
    viaHost();
    span.endCollective(kind, c.mask, bytes, async);
    return {};
  }
  joinCompute(ctx);
  ProfileSpan span(ctx.comm);
  viaNccl(ctx.comms[c.mask]);
  span.endCollective(kind, c.mask, bytes, async);
  return finishOnComm(ctx);
}

/// An in-place collective: nothing for a group of one rank. MPI mode: the
/// data goes to the staging buffer if `send`, `exchange(host)` runs there,
/// and the result comes back if `receive`. NCCL mode: `viaNccl(comm)`, not
/// called for zero elements.
template <typename Exchange, typename ViaNccl>
CollectiveHandle runInPlace(const InPlace &c, CollectiveKind kind, bool async,
                            bool send, bool receive, Exchange exchange,
                            ViaNccl viaNccl) {
  if (c.group->size == 1)
    return {};
  int64_t bytes = c.bytes();
  return runCollective(
      c, kind, bytes, async,
      [&] {
        void *host = stagingBuffer(bytes);
        if (send)
          copyStaging(c.ctx, host, c.data, bytes, cudaMemcpyDeviceToHost);
        exchange(host);
        if (receive)
          copyStaging(c.ctx, c.data, host, bytes, cudaMemcpyHostToDevice);
      },
      [&](ncclComm_t comm) {
        if (c.count > 0)
          viaNccl(comm);
      });
}

/// A reshaping collective: a group of one rank copies its block. MPI mode:
/// the source goes to the staging buffer, `exchange(hostSrc, hostDst)` runs
/// there, the destination comes back. NCCL mode: `viaNccl(comm)`, not called
/// for empty blocks.
template <typename Exchange, typename ViaNccl>
CollectiveHandle runBlocks(const Blocks &c, CollectiveKind kind,
                           Exchange exchange, ViaNccl viaNccl) {
  if (c.group->size == 1) {
    copyLocal(c.ctx, c.dst, c.src, c.blockBytes);
    return {};
  }
  return runCollective(
      c, kind, c.blockBytes, /*async=*/false,
      [&] {
        char *host =
            static_cast<char *>(stagingBuffer(c.srcBytes + c.dstBytes));
        copyStaging(c.ctx, host, c.src, c.srcBytes, cudaMemcpyDeviceToHost);
        exchange(host, host + c.srcBytes);
        copyStaging(c.ctx, c.dst, host + c.srcBytes, c.dstBytes,
                    cudaMemcpyHostToDevice);
      },
      [&](ncclComm_t comm) {
        if (c.block > 0)
          viaNccl(comm);
      });
}

/// `async`: counted in the profile as a non-blocking start (summaRt*Start).
CollectiveHandle broadcastChecked(const char *caller, intptr_t base,
                                  int64_t offset, int64_t count, int32_t dtype,
                                  int32_t mask, int64_t root,
                                  bool async = false) {
  InPlace c(caller, base, offset, count, dtype, mask);
  requireValid(checkRoot(caller, root, c.group->size));
  bool isRoot = c.group->rank == root;
  return runInPlace(
      c, CollectiveKind::Broadcast, async, /*send=*/isRoot, /*receive=*/!isRoot,
      [&](void *host) {
        host::broadcast(host, count, c.type.dtype, static_cast<int>(root),
                        c.group->comm);
      },
      [&](ncclComm_t comm) {
        SUMMA_NCCL_CHECK(
            ncclBroadcast(c.data, c.data, count, ncclType(c.type.dtype),
                          static_cast<int>(root), comm, c.ctx.comm));
      });
}

CollectiveHandle reduceChecked(const char *caller, intptr_t base,
                               int64_t offset, int64_t count, int32_t dtype,
                               int32_t mask, int64_t root, int32_t kind,
                               bool async = false) {
  InPlace c(caller, base, offset, count, dtype, mask);
  requireValid(checkRoot(caller, root, c.group->size));
  requireValid(checkReduction(caller, kind));
  return runInPlace(
      c, CollectiveKind::Reduce, async, /*send=*/true,
      /*receive=*/c.group->rank == root,
      [&](void *host) {
        host::reduce(host, count, c.type.dtype, kind, static_cast<int>(root),
                     c.group->rank, c.group->comm);
      },
      [&](ncclComm_t comm) {
        // In place: NCCL writes the receive buffer on the root only.
        SUMMA_NCCL_CHECK(ncclReduce(c.data, c.data, count,
                                    ncclType(c.type.dtype), ncclOp(kind),
                                    static_cast<int>(root), comm, c.ctx.comm));
      });
}

CollectiveHandle allReduceChecked(const char *caller, intptr_t base,
                                  int64_t offset, int64_t count, int32_t dtype,
                                  int32_t mask, int32_t kind) {
  InPlace c(caller, base, offset, count, dtype, mask);
  requireValid(checkReduction(caller, kind));
  return runInPlace(
      c, CollectiveKind::AllReduce, /*async=*/false, /*send=*/true,
      /*receive=*/true,
      [&](void *host) {
        host::allReduce(host, count, c.type.dtype, kind, c.group->comm);
      },
      [&](ncclComm_t comm) {
        SUMMA_NCCL_CHECK(ncclAllReduce(c.data, c.data, count,
                                       ncclType(c.type.dtype), ncclOp(kind),
                                       comm, c.ctx.comm));
      });
}

/// NCCL's all-gather of a non-empty block. NCCL gathers [n, block]. Where
/// that is not the destination's layout ([outer, n * inner] with outer > 1),
/// gather into scratch and reorder; otherwise NCCL allows one overlap, its
/// in-place form (src is this rank's block of dst), and any other
/// overlapping source is copied.
void ncclAllGatherBlocks(const Blocks &c, ncclComm_t comm) {
  const char *caller = "summaRtAllGather";
  Context &ctx = c.ctx;
  int64_t n = c.group->size;
  bool reorder = c.outer != 1;
  bool inPlace = c.src == c.dst + c.group->rank * c.blockBytes;
  char *scratch = nullptr;
  const char *send = c.src;
  if (reorder) {
    scratch = commScratch(ctx, n * c.blockBytes, caller);
  } else if (!inPlace &&
             overlaps(c.src, c.blockBytes, c.dst, n * c.blockBytes)) {
    scratch = commScratch(ctx, c.blockBytes, caller);
    SUMMA_CUDA_CHECK(cudaMemcpyAsync(scratch, c.src, c.blockBytes,
                                     cudaMemcpyDeviceToDevice, ctx.comm));
    send = scratch;
  }
  SUMMA_NCCL_CHECK(ncclAllGather(send, reorder ? scratch : c.dst, c.block,
                                 ncclType(c.type.dtype), comm, ctx.comm));
  if (reorder)
    reorderBlocks(ctx, c.dst, scratch, n, c.outer,
                  c.inner * static_cast<int64_t>(c.type.size),
                  /*toSideBySide=*/true);
  if (scratch)
    poolRelease(scratch, ctx.comm, caller);
}

/// NCCL's reduce-scatter of a non-empty block. NCCL scatters [n, block]: a
/// source of [outer, n * inner] with outer > 1 is reordered into scratch
/// first; an overlapping source other than NCCL's in-place form (dst is this
/// rank's block of src) is copied.
void ncclReduceScatterBlocks(const Blocks &c, int32_t kind, ncclComm_t comm) {
  const char *caller = "summaRtReduceScatter";
  Context &ctx = c.ctx;
  int64_t n = c.group->size;
  bool inPlace = c.outer == 1 && c.dst == c.src + c.group->rank * c.blockBytes;
  char *scratch = nullptr;
  if (c.outer != 1) {
    scratch = commScratch(ctx, n * c.blockBytes, caller);
    reorderBlocks(ctx, scratch, c.src, n, c.outer,
                  c.inner * static_cast<int64_t>(c.type.size),
                  /*toSideBySide=*/false);
  } else if (!inPlace &&
             overlaps(c.src, n * c.blockBytes, c.dst, c.blockBytes)) {
    scratch = commScratch(ctx, n * c.blockBytes, caller);
    SUMMA_CUDA_CHECK(cudaMemcpyAsync(scratch, c.src, n * c.blockBytes,
                                     cudaMemcpyDeviceToDevice, ctx.comm));
  }
  SUMMA_NCCL_CHECK(ncclReduceScatter(scratch ? scratch : c.src, c.dst, c.block,
                                     ncclType(c.type.dtype), ncclOp(kind), comm,
                                     ctx.comm));
  if (scratch)
    poolRelease(scratch, ctx.comm, caller);
}

CollectiveHandle allGatherChecked(const char *caller, intptr_t srcBase,
                                  int64_t srcOffset, intptr_t dstBase,
                                  int64_t dstOffset, int64_t outer,
                                  int64_t inner, int32_t dtype, int32_t mask) {
  Blocks c(caller, srcBase, srcOffset, /*srcWhole=*/false, dstBase, dstOffset,
           outer, inner, dtype, mask);
  return runBlocks(
      c, CollectiveKind::AllGather,
      [&](char *hostSrc, char *hostDst) {
        host::allGather(hostSrc, hostDst, outer, inner, c.type.dtype,
                        c.group->size, c.group->comm);
      },
      [&](ncclComm_t comm) { ncclAllGatherBlocks(c, comm); });
}

CollectiveHandle reduceScatterChecked(const char *caller, intptr_t srcBase,
                                      int64_t srcOffset, intptr_t dstBase,
                                      int64_t dstOffset, int64_t outer,
                                      int64_t inner, int32_t dtype,
                                      int32_t mask, int32_t kind) {
  Blocks c(caller, srcBase, srcOffset, /*srcWhole=*/true, dstBase, dstOffset,
           outer, inner, dtype, mask);
  requireValid(checkReduction(caller, kind));
  return runBlocks(
      c, CollectiveKind::ReduceScatter,
      [&](char *hostSrc, char *hostDst) {
        host::reduceScatter(hostSrc, hostDst, outer, inner, c.type.dtype, kind,
                            c.group->size, c.group->comm);
      },
      [&](ncclComm_t comm) { ncclReduceScatterBlocks(c, kind, comm); });
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
  summa::rt::requireInitialised("waitHost");
  pollUntilDone([&] { return cudaEventQuery(handle.done); },
                "cudaEventQuery(handle.done)", "a collective");
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
