//===- Collectives.cpp - MPI collectives over grid sub-groups ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The collectives of the C ABI on the sub-communicators built by summaRtInit.
// Every argument is validated first (a bad one aborts all ranks with the
// function's name); a group of one rank then returns at once (after copying
// for the shape-changing collectives) and is not profiled, see Profile.h.
//
// The non-blocking forms (summaRtBroadcastStart, summaRtReduceStart) issue
// MPI_Ibcast / MPI_Ireduce on the same communicators, one request per chunk
// of at most maxChunk elements, and keep the requests in a RequestTable
// under the handle they return; summaRtWait completes them in order.
//
//===----------------------------------------------------------------------===//

#include "DType.h"
#include "Error.h"
#include "GridState.h"
#include "HostBlocks.h"
#include "Profile.h"
#include "RequestTable.h"

#include "summa/Runtime/SummaRuntime.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <vector>

using namespace summa::rt;

namespace {

/// MPI counts are int: element-wise collectives are split into chunks of at
/// most this many elements (smaller under setMaxChunkForTesting).
constexpr int64_t kDefaultMaxChunk = int64_t(1) << 30;
int64_t maxChunk = kDefaultMaxChunk;

char *elementPointer(intptr_t base, int64_t offset, const DTypeInfo &type) {
  return reinterpret_cast<char *>(base) +
         offset * static_cast<int64_t>(type.size);
}

void checkBuffer(const char *caller, const char *what, intptr_t base,
                 int64_t offset, int64_t count) {
  if (count < 0)
    fatal("%s: negative element count %lld for the %s", caller,
          (long long)count, what);
  if (offset < 0)
    fatal("%s: negative offset %lld for the %s", caller, (long long)offset,
          what);
  if (count > 0 && base == 0)
    fatal("%s: the %s is a null pointer but has %lld elements", caller, what,
          (long long)count);
}

void checkRoot(const char *caller, int64_t root, const Group &group) {
  if (root < 0 || root >= group.size)
    fatal("%s: root %lld is outside the group of %d ranks", caller,
          (long long)root, group.size);
}

MPI_Op reductionOp(int32_t kind, const char *caller) {
  MPI_Op op = builtinReductionOp(kind);
  if (op == MPI_OP_NULL)
    fatal("%s: invalid reduction kind %d (expected 0 = sum, 1 = max, "
          "2 = min, 3 = prod)",
          caller, kind);
  return op;
}

/// Validates an [outer, inner] block and returns outer * inner, which must
/// fit in an MPI count, as must n * outer * inner.
int64_t checkBlock(const char *caller, int64_t outer, int64_t inner,
                   const Group &group) {
  if (outer < 0 || inner < 0)
    fatal("%s: negative shape [%lld, %lld]", caller, (long long)outer,
          (long long)inner);
  if (inner != 0 && outer > INT64_MAX / inner / group.size)
    fatal("%s: shape [%lld, %lld] over %d ranks overflows", caller,
          (long long)outer, (long long)inner, group.size);
  int64_t block = outer * inner;
  if (block > INT_MAX)
    fatal("%s: a block of %lld elements exceeds the CPU backend's limit of "
          "%d elements per rank",
          caller, (long long)block, INT_MAX);
  return block;
}

/// A started collective: its MPI requests (one per chunk) and what the
/// profile needs at summaRtWait.
struct PendingCollective {
  std::vector<MPI_Request> requests;
  CollectiveKind kind = CollectiveKind::Broadcast;
  int32_t mask = 0;
  /// Whether the start was counted (then the wait's time is added too).
  bool counted = false;
};

/// The requests in flight. Never destroyed, so that nothing touches MPI
/// requests after MPI_Finalize / MPI_Abort at exit.
RequestTable<PendingCollective> &pendingCollectives() {
  static auto *table = new RequestTable<PendingCollective>();
  return *table;
}

/// Files a started collective (timed from `start`) and returns its handle.
int64_t fileRequest(PendingCollective pending, int64_t bytes, double start) {
  pending.counted = profileRecording();
  recordCollective(pending.kind, pending.mask, bytes, profileClock() - start,
                   /*async=*/true);
  return pendingCollectives().add(std::move(pending));
}

/// A validated call of an all-gather or reduce-scatter: this member's block
/// of [outer, inner] and the whole of n blocks; the source is the whole with
/// `srcBlocks` (reduce-scatter), the destination otherwise (all-gather).
struct BlockCall {
  BlockCall(const char *caller, intptr_t srcBase, int64_t srcOffset,
            bool srcBlocks, intptr_t dstBase, int64_t dstOffset, int64_t outer,
            int64_t inner, int32_t dtype, int32_t axesMask)
      : caller(caller), type(checkDataDType(dtype, caller)),
        group(groupFor(axesMask, caller)) {
    int64_t block = checkBlock(caller, outer, inner, group);
    int64_t whole = group.size * block;
    checkBuffer(caller, "source", srcBase, srcOffset,
                srcBlocks ? whole : block);
    checkBuffer(caller, "destination", dstBase, dstOffset,
                srcBlocks ? block : whole);
    src = elementPointer(srcBase, srcOffset, type);
    dst = elementPointer(dstBase, dstOffset, type);
    blockBytes = block * static_cast<int64_t>(type.size);
  }

  /// A group of one: copies the block and returns true.
  bool local() const {
    if (group.size != 1)
      return false;
    if (blockBytes > 0)
      std::memmove(dst, src, blockBytes);
    return true;
  }

  const char *caller;
  DTypeInfo type;
  const Group &group;
  const char *src = nullptr;
  char *dst = nullptr;
  int64_t blockBytes = 0;
};

/// A validated call of an in-place collective (broadcast, reduce,
/// all-reduce, blocking or started).
struct InPlaceCall {
  DTypeInfo type;
  const Group *group = nullptr;
  char *data = nullptr;
  int64_t count = 0;
  MPI_Op op = MPI_OP_NULL;
  int64_t bytes() const { return count * static_cast<int64_t>(type.size); }
  /// Calls `f(chunkData, chunkCount)` for each chunk of at most maxChunk
  /// elements (MPI counts are int); at least once, also for 0 elements.
  template <typename F>
  void forEachChunk(F f) const {
    int64_t done = 0;
    do {
      int chunk = static_cast<int>(std::min(count - done, maxChunk));
      f(data + done * type.size, chunk);
      done += chunk;
    } while (done < count);
  }
};

/// Validates the arguments in the order every in-place collective does
/// (element type, group, buffer, root if any, reduction kind if any); a bad
/// one aborts all ranks naming `caller`. Returns std::nullopt for a group of
/// one rank: nothing to do.
std::optional<InPlaceCall> beginInPlace(const char *caller, intptr_t base,
                                        int64_t offset, int64_t count,
                                        int32_t dtype, int32_t axesMask,
                                        std::optional<int64_t> root,
                                        std::optional<int32_t> kind) {
  InPlaceCall call;
  call.type = checkDataDType(dtype, caller);
  call.group = &groupFor(axesMask, caller);
  checkBuffer(caller, "buffer", base, offset, count);
  if (root)
    checkRoot(caller, *root, *call.group);
  if (kind)
    call.op = reductionOp(*kind, caller);
  if (call.group->size == 1)
    return std::nullopt;
  call.data = elementPointer(base, offset, call.type);
  call.count = count;
  return call;
}

/// Runs a blocking in-place collective, `run(chunkData, chunkCount)` per
/// chunk, and counts it as `kind`; nothing for a group of one rank (no
/// `call`).
template <typename Run>
void runInPlace(const std::optional<InPlaceCall> &call, CollectiveKind kind,
                int32_t axesMask, Run run) {
  if (!call)
    return;
  double start = profileClock();
  call->forEachChunk(run);
  recordCollective(kind, axesMask, call->bytes(), profileClock() - start);
}

/// Starts a non-blocking in-place collective, `start(chunkData, chunkCount,
/// &request)` per chunk, and returns its handle (0 for a group of one rank:
/// no `call`).
template <typename Start>
int64_t startInPlace(const std::optional<InPlaceCall> &call,
                     CollectiveKind kind, int32_t axesMask, Start start) {
  if (!call)
    return 0;
  double startTime = profileClock();
  PendingCollective pending;
  pending.kind = kind;
  pending.mask = axesMask;
  call->forEachChunk([&](char *chunk, int n) {
    MPI_Request request = MPI_REQUEST_NULL;
    start(chunk, n, &request);
    pending.requests.push_back(request);
  });
  return fileRequest(std::move(pending), call->bytes(), startTime);
}

} // namespace

void summaRtBroadcast(intptr_t base, int64_t offset, int64_t count,
                      int32_t dtype, int32_t axesMask, int64_t root) {
  std::optional<InPlaceCall> call =
      beginInPlace("summaRtBroadcast", base, offset, count, dtype, axesMask,
                   root, std::nullopt);
  runInPlace(
      call, CollectiveKind::Broadcast, axesMask, [&](char *chunk, int n) {
        SUMMA_MPI_CHECK(MPI_Bcast(chunk, n, call->type.mpiType,
                                  static_cast<int>(root), call->group->comm));
      });
}

void summaRtReduce(intptr_t base, int64_t offset, int64_t count, int32_t dtype,
                   int32_t axesMask, int64_t root, int32_t kind) {
  std::optional<InPlaceCall> call = beginInPlace(
      "summaRtReduce", base, offset, count, dtype, axesMask, root, kind);
  bool isRoot = call && call->group->rank == root;
  runInPlace(call, CollectiveKind::Reduce, axesMask, [&](char *chunk, int n) {
    // The root reduces in place; the others only send, and MPI ignores their
    // receive buffer, so their data is left unchanged.
    SUMMA_MPI_CHECK(MPI_Reduce(isRoot ? MPI_IN_PLACE : chunk,
                               isRoot ? chunk : nullptr, n, call->type.mpiType,
                               call->op, static_cast<int>(root),
                               call->group->comm));
  });
}

int64_t summaRtBroadcastStart(intptr_t base, int64_t offset, int64_t count,
                              int32_t dtype, int32_t axesMask, int64_t root) {
  std::optional<InPlaceCall> call =
      beginInPlace("summaRtBroadcastStart", base, offset, count, dtype,
                   axesMask, root, std::nullopt);
  return startInPlace(call, CollectiveKind::Broadcast, axesMask,
                      [&](char *chunk, int n, MPI_Request *request) {
                        SUMMA_MPI_CHECK(MPI_Ibcast(chunk, n, call->type.mpiType,
                                                   static_cast<int>(root),
                                                   call->group->comm, request));
                      });
}

int64_t summaRtReduceStart(intptr_t base, int64_t offset, int64_t count,
                           int32_t dtype, int32_t axesMask, int64_t root,
                           int32_t kind) {
  std::optional<InPlaceCall> call = beginInPlace(
      "summaRtReduceStart", base, offset, count, dtype, axesMask, root, kind);
  bool isRoot = call && call->group->rank == root;
  return startInPlace(
      call, CollectiveKind::Reduce, axesMask,
      [&](char *chunk, int n, MPI_Request *request) {
        // As summaRtReduce: the root reduces in place, the others only send.
        SUMMA_MPI_CHECK(
            MPI_Ireduce(isRoot ? MPI_IN_PLACE : chunk, isRoot ? chunk : nullptr,
                        n, call->type.mpiType, call->op, static_cast<int>(root),
                        call->group->comm, request));
      });
}

void summaRtWait(int64_t request) {
  if (request == 0)
    return;
  std::optional<PendingCollective> pending = pendingCollectives().take(request);
  if (!pending)
    fatal("%s", requestNotInFlightMessage(request).c_str());
  double start = profileClock();
  for (MPI_Request &chunk : pending->requests)
    SUMMA_MPI_CHECK(MPI_Wait(&chunk, MPI_STATUS_IGNORE));
  if (pending->counted)
    recordCollectiveWait(pending->kind, pending->mask, profileClock() - start);
}

size_t summa::rt::requestsInFlight() { return pendingCollectives().size(); }

int64_t summa::rt::setMaxChunkForTesting(int64_t elements) {
  int64_t previous = maxChunk;
  maxChunk = elements >= 1 && elements <= kDefaultMaxChunk ? elements
                                                           : kDefaultMaxChunk;
  return previous;
}

void summaRtAllReduce(intptr_t base, int64_t offset, int64_t count,
                      int32_t dtype, int32_t axesMask, int32_t kind) {
  std::optional<InPlaceCall> call =
      beginInPlace("summaRtAllReduce", base, offset, count, dtype, axesMask,
                   std::nullopt, kind);
  runInPlace(call, CollectiveKind::AllReduce, axesMask,
             [&](char *chunk, int n) {
               SUMMA_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, chunk, n,
                                             call->type.mpiType, call->op,
                                             call->group->comm));
             });
}

void summaRtAllGather(intptr_t srcBase, int64_t srcOffset, intptr_t dstBase,
                      int64_t dstOffset, int64_t outer, int64_t inner,
                      int32_t dtype, int32_t axesMask) {
  BlockCall call("summaRtAllGather", srcBase, srcOffset, /*srcBlocks=*/false,
                 dstBase, dstOffset, outer, inner, dtype, axesMask);
  if (call.local())
    return;
  double start = profileClock();
  allGatherBlocks(call.src, call.dst, outer, inner, call.type.size,
                  call.type.mpiType, call.group.size, call.group.comm);
  recordCollective(CollectiveKind::AllGather, axesMask, call.blockBytes,
                   profileClock() - start);
}

void summaRtReduceScatter(intptr_t srcBase, int64_t srcOffset, intptr_t dstBase,
                          int64_t dstOffset, int64_t outer, int64_t inner,
                          int32_t dtype, int32_t axesMask, int32_t kind) {
  BlockCall call("summaRtReduceScatter", srcBase, srcOffset,
                 /*srcBlocks=*/true, dstBase, dstOffset, outer, inner, dtype,
                 axesMask);
  MPI_Op op = reductionOp(kind, call.caller);
  if (call.local())
    return;
  double start = profileClock();
  reduceScatterBlocks(call.src, call.dst, outer, inner, call.type.size,
                      call.type.mpiType, op, call.group.size, call.group.comm);
  recordCollective(CollectiveKind::ReduceScatter, axesMask, call.blockBytes,
                   profileClock() - start);
}
