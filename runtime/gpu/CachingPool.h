//===- CachingPool.h - stream-ordered caching allocator ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The device memory pool of the GPU backend, written against an abstract
// backend so that its logic is unit-tested on the host:
//
//  * Sizes are rounded up to a size class (poolSizeClass): 512 bytes at
//    least, four classes per power of two up to 64 MiB (less than 25%
//    waste), multiples of 2 MiB above. Each class has a free list.
//  * release(p, stream) does not free: the block waits, behind a fence
//    recorded on `stream`, until the work queued there is done; a later
//    allocate on the same stream may take it at once (stream order makes
//    that safe), one on another stream only once its fence has passed.
//  * When the backend is out of memory, the pool waits for every fence,
//    returns all cached blocks to the backend and tries once more.
//
// Backend requirements:
//   using Stream; using Fence;
//   void *allocate(size_t bytes);         // nullptr when out of memory
//   void free(void *pointer);
//   Fence record(Stream stream);           // a marker after queued work
//   bool passed(Fence fence);              // has the marker been reached?
//   void destroy(Fence fence);
//   void synchronize();                    // wait for all streams
//
// Not thread-safe: the runtime is called from one thread per rank.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_CACHINGPOOL_H
#define SUMMA_RUNTIME_GPU_CACHINGPOOL_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

namespace summa::gpu {

constexpr size_t kPoolMinBlock = 512;
constexpr size_t kPoolLargeThreshold = size_t(64) << 20;
constexpr size_t kPoolLargeGranule = size_t(2) << 20;

/// The size class of a request of `bytes` bytes (see above).
inline size_t poolSizeClass(size_t bytes) {
  if (bytes <= kPoolMinBlock)
    return kPoolMinBlock;
  if (bytes > kPoolLargeThreshold)
    return (bytes + kPoolLargeGranule - 1) / kPoolLargeGranule *
           kPoolLargeGranule;
  // The power of two p with p < bytes <= 2p, then steps of p/4.
  size_t p = kPoolMinBlock;
  while (p * 2 < bytes)
    p *= 2;
  size_t step = p / 4;
  return (bytes + step - 1) / step * step;
}

struct PoolStats {
  /// Bytes of blocks handed out (by size class) and not yet released.
  size_t bytesInUse = 0;
  size_t peakBytesInUse = 0;
  /// Bytes held from the backend in total (in use, pending or cached).
  size_t bytesReserved = 0;
  int64_t backendAllocations = 0;
  int64_t backendFrees = 0;
  int64_t cacheHits = 0;
  int64_t trims = 0;
};

template <typename Backend>
class CachingPool {
public:
  using Stream = typename Backend::Stream;
  using Fence = typename Backend::Fence;

  explicit CachingPool(Backend &backend) : backend(backend) {}
  CachingPool(const CachingPool &) = delete;
  CachingPool &operator=(const CachingPool &) = delete;
  ~CachingPool() = default;

  /// A block of at least `bytes` bytes for use on `stream`, or nullptr when
  /// the backend has no memory left even after a trim.
  void *allocate(size_t bytes, Stream stream) {
    size_t size = poolSizeClass(bytes);
    if (void *pointer = takeCached(size, stream)) {
      ++stats_.cacheHits;
      return handOut(pointer, size);
    }
    void *pointer = backend.allocate(size);
    if (!pointer) {
      trim();
      pointer = backend.allocate(size);
      if (!pointer)
        return nullptr;
    }
    ++stats_.backendAllocations;
    stats_.bytesReserved += size;
    return handOut(pointer, size);
  }

  /// Returns a block once the work queued on `stream` is done. False if the
  /// pointer was not handed out by this pool (or was released already).
  bool release(void *pointer, Stream stream) {
    auto found = live.find(pointer);
    if (found == live.end())
      return false;
    size_t size = found->second;
    live.erase(found);
    stats_.bytesInUse -= size;
    pending.push_back({pointer, size, stream, backend.record(stream)});
    return true;
  }

  /// The size class of a live block, or 0.
  size_t blockSize(void *pointer) const {
    auto found = live.find(pointer);
    return found == live.end() ? 0 : found->second;
  }

  /// Waits for all fences and returns every cached block to the backend.
  void trim() {
    ++stats_.trims;
    if (!pending.empty())
      backend.synchronize();
    collect(/*all=*/true);
    for (auto &entry : freeLists) {
      for (void *pointer : entry.second) {
        backend.free(pointer);
        ++stats_.backendFrees;
        stats_.bytesReserved -= entry.first;
      }
    }
    freeLists.clear();
  }

  /// Waits for the backend and frees everything the pool holds, live blocks
  /// included (at shutdown).
  void releaseAll() {
    backend.synchronize();
    for (auto &entry : live) {
      backend.free(entry.first);
      ++stats_.backendFrees;
      stats_.bytesReserved -= entry.second;
    }
    live.clear();
    stats_.bytesInUse = 0;
    trim();
  }

  const PoolStats &stats() const { return stats_; }
  size_t pendingBlocks() const { return pending.size(); }
  size_t cachedBlocks() const {
    size_t count = 0;
    for (const auto &entry : freeLists)
      count += entry.second.size();
    return count;
  }

private:
  struct Pending {
    void *pointer;
    size_t size;
    Stream stream;
    Fence fence;
  };

  void *handOut(void *pointer, size_t size) {
    live.emplace(pointer, size);
    stats_.bytesInUse += size;
    stats_.peakBytesInUse = std::max(stats_.peakBytesInUse, stats_.bytesInUse);
    return pointer;
  }

  /// Moves pending blocks whose fence has passed (all of them with `all`,
  /// after a synchronize) to the free lists.
  void collect(bool all) {
    for (auto it = pending.begin(); it != pending.end();) {
      if (all || backend.passed(it->fence)) {
        backend.destroy(it->fence);
        freeLists[it->size].push_back(it->pointer);
        it = pending.erase(it);
      } else {
        ++it;
      }
    }
  }

  void *takeCached(size_t size, Stream stream) {
    // A block released on the same stream is safe to reuse in stream order:
    // take the most recent one of the right class.
    for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
      if (it->size == size && it->stream == stream) {
        void *pointer = it->pointer;
        backend.destroy(it->fence);
        pending.erase(std::next(it).base());
        return pointer;
      }
    }
    collect(/*all=*/false);
    auto found = freeLists.find(size);
    if (found == freeLists.end() || found->second.empty())
      return nullptr;
    void *pointer = found->second.back();
    found->second.pop_back();
    return pointer;
  }

  Backend &backend;
  std::unordered_map<void *, size_t> live;
  std::deque<Pending> pending;
  std::map<size_t, std::vector<void *>> freeLists;
  PoolStats stats_;
};

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_CACHINGPOOL_H
