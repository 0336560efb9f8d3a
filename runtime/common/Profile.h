//===- Profile.h - collective and matmul counters ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The runtime counts, per collective kind and axes mask, the calls, the bytes
// and the seconds spent, and for summaRtMatmul the calls, the flops and the
// seconds. summaRtFinalize writes them as JSON when SUMMA_PROFILE is set:
//
//   SUMMA_PROFILE=path      -> path.rank<R>.json, one file per rank
//   SUMMA_PROFILE=p.%r.json -> p.<R>.json (every "%r" becomes the rank)
//
//   {"rank":R,"grid":[q,q,d],"coords":[i,j,k],
//    "collectives":[{"op":"broadcast","group":"col","count":N,"bytes":B,
//                    "seconds":S[,"async":A,"wait_seconds":W]}, ...],
//    "matmul":{"count":N,"flops":F,"seconds":S}
//    [,"local_matmul":{"count":N,"flops":F,"seconds":S}][,"io":{"read_bytes":R,"write_bytes":W}]
//    ,"memory":{"peak_rss_bytes":M}}
//
// Definitions:
//  * `bytes` is the size in bytes of this rank's buffer argument: the buffer
//    for broadcast, reduce and all_reduce, the source for all_gather and the
//    destination for reduce_scatter. It is the local payload, not the bytes a
//    particular MPI algorithm puts on the wire.
//  * Collectives over a group of one rank move nothing and are NOT counted
//    (their arguments are still validated), so that the counters equal the
//    communication a cost model predicts.
//  * Calls with zero elements over a larger group are counted (0 bytes).
//  * Non-blocking collectives (summaRtBroadcastStart, summaRtReduceStart)
//    are counted when started, with the count and bytes of the blocking form,
//    so `count` and `bytes` do not depend on which form the program used.
//    `async` is how many of the `count` calls were started non-blocking;
//    `wait_seconds` is the time spent inside summaRtWait for them. Their
//    `seconds` is the time inside the start call plus inside summaRtWait (the
//    time this rank spent on the collective), so `seconds` includes
//    `wait_seconds`. Both fields are omitted while `async` is 0. A request's
//    wait time is added iff its start was counted (not under ProfilePause).
//    GPU backend: a start's share of `seconds` is what the blocking form
//    would record (the collective's GPU time from CUDA events when
//    SUMMA_PROFILE is set, the host time in the one-GPU MPI test mode);
//    `wait_seconds` is the host time inside summaRtWait, which only makes
//    the compute stream wait there.
//  * `flops` is 2*m*n*k per summaRtMatmul call; every valid call is counted.
//    `local_matmul` counts the members of summaRtMatmulBatched calls (the
//    local contractions convert-contractions-to-runtime sends to BLAS or
//    cuBLAS, e.g. attention's products) apart, so that `matmul` stays the
//    SUMMA GEMMs that summa-plan predicts. Omitted while its count is 0.
//  * `read_bytes` counts the bytes the driver read from tensor files
//    (--inputs) and token files (--data) into this rank's tiles: each rank
//    reads only the elements it holds. Omitted while 0. The --check
//    reference's whole-tensor reads, under ProfilePause, are not counted.
//    `write_bytes` counts the tensor bytes this rank wrote to files: its
//    own boxes of sharded checkpoints and --outputs directories
//    (ShardedCheckpoint.h), and on rank 0 a whole --outputs file. `io` is
//    omitted while both are 0.
//  * `peak_rss_bytes` is the process's peak resident memory when the profile
//    is written (getrusage), host memory on both backends: with buffers
//    freed at their last use (summa-dealloc-at-last-use), that of the live
//    buffers, not of all of them.
//  * Entries with a zero count are omitted from the JSON.
//
// The C++ accessors below are exported from libsumma_runtime.so for tests;
// they are not part of the C ABI.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_PROFILE_H
#define SUMMA_RUNTIME_COMMON_PROFILE_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace summa::rt {

enum class CollectiveKind {
  Broadcast = 0,
  Reduce,
  AllReduce,
  AllGather,
  ReduceScatter,
};
constexpr int kNumCollectiveKinds = 5;

struct CollectiveCounter {
  int64_t count = 0;
  int64_t bytes = 0;
  double seconds = 0.0;
  /// Of `count`, the calls started non-blocking (summaRt*Start).
  int64_t async = 0;
  /// Of `seconds`, the time inside summaRtWait for those calls.
  double waitSeconds = 0.0;
};

struct MatmulCounter {
  int64_t count = 0;
  int64_t flops = 0;
  double seconds = 0.0;
};

struct ProfileSnapshot {
  /// Indexed by [CollectiveKind][axes mask]; mask 0 is unused.
  CollectiveCounter collectives[kNumCollectiveKinds][8];
  MatmulCounter matmul;
  /// The GEMMs of summaRtMatmulBatched (local contractions: attention's
  /// products), apart from the SUMMA GEMMs a plan predicts.
  MatmulCounter localMatmul;
  /// Bytes read from tensor and token files (recordRead).
  int64_t readBytes = 0;
  /// Tensor bytes this rank wrote to files (recordWrite).
  int64_t writeBytes = 0;

  const CollectiveCounter &get(CollectiveKind kind, int32_t mask) const {
    return collectives[static_cast<int>(kind)][mask];
  }
};

/// The JSON name of a collective kind: "broadcast", "reduce", "all_reduce",
/// "all_gather" or "reduce_scatter".
SUMMA_RT_EXPORT const char *collectiveName(CollectiveKind kind);
/// The spanned axes of `mask` joined by '+', in the order row, col, depth:
/// 1 -> "row", 2 -> "col", 3 -> "row+col", 7 -> "row+col+depth".
SUMMA_RT_EXPORT std::string groupName(int32_t mask);

/// A copy of the counters of this rank.
SUMMA_RT_EXPORT ProfileSnapshot profileSnapshot();
/// The payload bytes this rank's collectives of each kind moved (over every
/// group) from `before` to `after`, into `bytes[kNumCollectiveKinds]`.
inline void collectiveBytesBetween(const ProfileSnapshot &before,
                                   const ProfileSnapshot &after,
                                   int64_t *bytes) {
  for (int kind = 0; kind < kNumCollectiveKinds; ++kind) {
    bytes[kind] = 0;
    for (int mask = 1; mask < 8; ++mask)
      bytes[kind] += after.collectives[kind][mask].bytes -
                     before.collectives[kind][mask].bytes;
  }
}
/// Sets every counter to zero.
SUMMA_RT_EXPORT void resetProfile();
/// The counters of this rank as the JSON document described above.
SUMMA_RT_EXPORT std::string profileToJson();

/// Sets a flag while alive and restores its previous value after.
class ScopedFlag {
public:
  ScopedFlag(bool &flag, bool value) : flag(flag), previous(flag) {
    flag = value;
  }
  ~ScopedFlag() { flag = previous; }
  ScopedFlag(const ScopedFlag &) = delete;
  ScopedFlag &operator=(const ScopedFlag &) = delete;

private:
  bool &flag;
  bool previous;
};

/// Suspends recording while alive (the driver uses it around the reference
/// run, so that the counters describe the spmd program only).
class SUMMA_RT_EXPORT ProfilePause : public ScopedFlag {
public:
  ProfilePause();
};

/// Seconds on a monotonic clock (usable before MPI is initialised).
double profileClock();

/// `pattern` with every "%r" replaced by `rank`, or with ".rank<R>" and
/// `extension` appended when it has no "%r": the per-rank files of
/// SUMMA_PROFILE (".json") and of the driver's --dump (".bin").
std::string perRankPath(const std::string &pattern, int rank,
                        const char *extension);

/// Closes a per-rank file (when `file` is open) whose writes succeeded iff
/// `written`, and on any failure prints "summa: rank R: cannot write <what>
/// file '<path>': <reason>" to stderr. Returns whether the file is complete.
bool closeRankFile(std::FILE *file, bool written, int rank, const char *what,
                   const std::string &path);

/// Whether calls are being counted (false under a ProfilePause).
bool profileRecording();

/// Counts one collective (unless paused); `async` marks a non-blocking start.
void recordCollective(CollectiveKind kind, int32_t mask, int64_t bytes,
                      double seconds, bool async = false);
/// Adds the time spent in summaRtWait for a counted non-blocking collective
/// to its `seconds` and `wait_seconds` (even under a ProfilePause: the start
/// decided whether the call counts).
void recordCollectiveWait(CollectiveKind kind, int32_t mask, double seconds);
void recordMatmul(int64_t flops, double seconds);
/// While alive, recordMatmul counts into `localMatmul` (the members of a
/// summaRtMatmulBatched call).
class LocalMatmulScope : public ScopedFlag {
public:
  LocalMatmulScope();
};
/// Whether a LocalMatmulScope is alive.
bool matmulsAreLocal();

/// The process's peak resident memory so far, in bytes (getrusage; 0 if
/// unknown).
int64_t peakRssBytes();

/// Counts `bytes` read from a file into this rank's tiles.
void recordRead(int64_t bytes);

/// Counts `bytes` of tensors this rank wrote to a file.
void recordWrite(int64_t bytes);

/// Writes this rank's profile if SUMMA_PROFILE is set. On failure prints
/// "summa: rank R: cannot write SUMMA_PROFILE file '<path>': <reason>" and
/// returns false.
bool writeProfileIfRequested();

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_PROFILE_H
