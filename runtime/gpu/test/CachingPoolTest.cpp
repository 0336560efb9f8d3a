//===- CachingPoolTest.cpp - the pool's logic on a fake device --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "CachingPool.h"
#include "HostTestUtil.h"

#include <cstdlib>
#include <set>

using namespace summa::gpu;

namespace {
/// Host memory with a capacity, and fences that pass when told to.
struct FakeBackend {
  using Stream = int;
  using Fence = int;

  size_t capacity = size_t(1) << 40;
  size_t used = 0;
  std::set<void *> blocks;
  std::vector<bool> fencePassed;
  int liveFences = 0;
  int synchronizations = 0;

  void *allocate(size_t bytes) {
    if (used + bytes > capacity)
      return nullptr;
    void *pointer = std::malloc(bytes);
    blocks.insert(pointer);
    used += bytes;
    sizes[pointer] = bytes;
    return pointer;
  }
  void free(void *pointer) {
    EXPECT_EQ(blocks.erase(pointer), 1u) << "double free";
    used -= sizes[pointer];
    std::free(pointer);
  }
  Fence record(Stream) {
    fencePassed.push_back(false);
    ++liveFences;
    return static_cast<int>(fencePassed.size()) - 1;
  }
  bool passed(Fence fence) { return fencePassed[fence]; }
  void destroy(Fence) { --liveFences; }
  void synchronize() {
    ++synchronizations;
    for (size_t f = 0; f < fencePassed.size(); ++f)
      fencePassed[f] = true;
  }
  ~FakeBackend() {
    // What a test leaves in the pool goes back with the fake device.
    for (void *pointer : blocks)
      std::free(pointer);
  }
  void passAll() {
    for (size_t f = 0; f < fencePassed.size(); ++f)
      fencePassed[f] = true;
  }
  std::map<void *, size_t> sizes;
};

constexpr int kCompute = 1;
constexpr int kComm = 2;

/// A pool over a fake device of its own.
class CachingPoolTest : public ::testing::Test {
protected:
  FakeBackend backend;
  CachingPool<FakeBackend> pool{backend};
};
} // namespace

TEST_F(CachingPoolTest, SizeClasses) {
  EXPECT_EQ(poolSizeClass(0), 512u);
  EXPECT_EQ(poolSizeClass(1), 512u);
  EXPECT_EQ(poolSizeClass(512), 512u);
  EXPECT_EQ(poolSizeClass(513), 640u);
  EXPECT_EQ(poolSizeClass(1000), 1024u);
  EXPECT_EQ(poolSizeClass(1025), 1280u);
  EXPECT_EQ(poolSizeClass(3 << 20), size_t(3) << 20);
  EXPECT_EQ(poolSizeClass((3 << 20) + 1), size_t(7) << 19);
  EXPECT_EQ(poolSizeClass(size_t(64) << 20), size_t(64) << 20);
  EXPECT_EQ(poolSizeClass((size_t(64) << 20) + 1), size_t(66) << 20);
  EXPECT_EQ(poolSizeClass(size_t(10) << 30), size_t(10) << 30);
  size_t previous = 0;
  for (size_t bytes = 0; bytes < (size_t(200) << 20);
       bytes = bytes < 4096 ? bytes + 1 : bytes + bytes / 7 + 13) {
    size_t size = poolSizeClass(bytes);
    ASSERT_GE(size, bytes);
    ASSERT_GE(size, previous) << "not monotonic at " << bytes;
    ASSERT_EQ(poolSizeClass(size), size) << "not idempotent at " << bytes;
    ASSERT_EQ(size % 128, 0u) << bytes;
    if (bytes > kPoolMinBlock && bytes <= kPoolLargeThreshold) {
      // Under 25% waste.
      ASSERT_LT(size - bytes, bytes / 4 + 1) << bytes;
    }
    if (bytes > kPoolLargeThreshold) {
      ASSERT_EQ(size % kPoolLargeGranule, 0u);
      ASSERT_LT(size - bytes, kPoolLargeGranule);
    }
    previous = size;
  }
}

TEST_F(CachingPoolTest, SameStreamReusesAtOnce) {
  void *a = pool.allocate(1000, kCompute);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(pool.blockSize(a), 1024u);
  EXPECT_TRUE(pool.release(a, kCompute));
  EXPECT_EQ(pool.pendingBlocks(), 1u);
  // Same stream, same class: reused although its fence has not passed.
  void *b = pool.allocate(900, kCompute);
  EXPECT_EQ(b, a);
  EXPECT_EQ(pool.stats().cacheHits, 1);
  EXPECT_EQ(pool.stats().backendAllocations, 1);
  EXPECT_EQ(backend.liveFences, 0);
}

TEST_F(CachingPoolTest, OtherStreamWaitsForTheFence) {
  void *a = pool.allocate(4096, kComm);
  EXPECT_TRUE(pool.release(a, kComm));
  // Still in use on the comm stream: the compute stream gets a new block.
  void *b = pool.allocate(4096, kCompute);
  EXPECT_NE(b, a);
  EXPECT_EQ(pool.stats().backendAllocations, 2);
  // Once the fence has passed, any stream may take it.
  backend.passAll();
  void *c = pool.allocate(4096, kCompute);
  EXPECT_EQ(c, a);
  EXPECT_EQ(pool.pendingBlocks(), 0u);
  EXPECT_EQ(pool.cachedBlocks(), 0u);
  EXPECT_TRUE(pool.release(b, kCompute));
  EXPECT_TRUE(pool.release(c, kCompute));
  pool.releaseAll();
  EXPECT_TRUE(backend.blocks.empty());
}

TEST_F(CachingPoolTest, ClassesAreSeparate) {
  void *small = pool.allocate(100, kCompute);
  EXPECT_TRUE(pool.release(small, kCompute));
  void *large = pool.allocate(100000, kCompute);
  EXPECT_NE(large, small);
  EXPECT_EQ(pool.blockSize(large), poolSizeClass(100000));
}

TEST_F(CachingPoolTest, OutOfMemoryTrimsAndRetries) {
  backend.capacity = 3 * 4096;
  void *a = pool.allocate(4096, kComm);
  void *b = pool.allocate(4096, kComm);
  void *c = pool.allocate(2048, kComm);
  ASSERT_TRUE(a && b && c);
  EXPECT_TRUE(pool.release(a, kComm));
  EXPECT_TRUE(pool.release(b, kComm));
  // 4096 + 2048 used by cached or live blocks... a new 8192 block only fits
  // once the cached blocks go back.
  void *d = pool.allocate(8192, kCompute);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(pool.stats().trims, 1);
  EXPECT_EQ(backend.synchronizations, 1);
  EXPECT_EQ(pool.cachedBlocks(), 0u);
  EXPECT_EQ(pool.stats().bytesReserved, 8192u + 2048u);
  // Nothing left to trim: out of memory.
  EXPECT_EQ(pool.allocate(8192, kCompute), nullptr);
  EXPECT_EQ(pool.stats().bytesInUse, 8192u + 2048u);
}

TEST_F(CachingPoolTest, StatsAndUnknownPointers) {
  int local = 0;
  EXPECT_FALSE(pool.release(&local, kCompute));
  void *a = pool.allocate(600, kCompute);
  void *b = pool.allocate(600, kCompute);
  EXPECT_EQ(pool.stats().bytesInUse, 2 * 640u);
  EXPECT_EQ(pool.stats().peakBytesInUse, 2 * 640u);
  EXPECT_TRUE(pool.release(a, kCompute));
  EXPECT_FALSE(pool.release(a, kCompute)) << "double free accepted";
  EXPECT_EQ(pool.stats().bytesInUse, 640u);
  EXPECT_EQ(pool.stats().peakBytesInUse, 2 * 640u);
  EXPECT_EQ(pool.stats().bytesReserved, 2 * 640u);
  pool.trim();
  EXPECT_EQ(pool.stats().bytesReserved, 640u);
  EXPECT_EQ(pool.stats().backendFrees, 1);
  (void)b;
  pool.releaseAll();
  EXPECT_EQ(pool.stats().bytesReserved, 0u);
  EXPECT_TRUE(backend.blocks.empty());
  EXPECT_EQ(backend.liveFences, 0);
}

TEST_F(CachingPoolTest, ManyBlocksOneStream) {
  // A loop that allocates and frees per step reuses the same blocks.
  for (int step = 0; step < 100; ++step) {
    void *x = pool.allocate(1 << 20, kCompute);
    void *y = pool.allocate(3 << 10, kCompute);
    EXPECT_TRUE(pool.release(y, kCompute));
    EXPECT_TRUE(pool.release(x, kCompute));
  }
  EXPECT_EQ(pool.stats().backendAllocations, 2);
  EXPECT_EQ(pool.stats().cacheHits, 198);
}
