//===- Calibrate.cpp - measure the machine summa-plan predicts --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-calibrate: run under mpiexec with P ranks, it measures what the
// planner's time model needs on this machine, through the runtime's own
// C ABI (summaRtMatmul, the collectives), the way compiled programs run
// (one BLAS thread per rank, every rank busy at once):
//
//  * the GEMM rate: summaRtMatmul in f32 on a few shapes, every rank at
//    once;
//  * the memory rate of a local loop nest: an elementwise pass
//    c[i] = a[i] + s * b[i] over arrays larger than the caches, on one rank
//    alone and on every rank at once;
//  * each collective (broadcast, reduce, all_reduce, all_gather,
//    reduce_scatter) for a range of message sizes, in the runtime's bytes
//    (the buffer, the all-gather's source, the reduce-scatter's
//    destination), over each group size of a grid of the P ranks ([2,2,2]
//    for 8: groups of 2, 4 and 8), every group at once as in a compiled
//    program; and what a one-element call adds to a short local loop
//    before it (the latency inside a program, where the ranks of a group do
//    not arrive in lockstep).
//
// Every time is the slowest rank's, the best of three trials of repeated
// calls. Rank 0 writes the samples as JSON to --out; `summa-plan
// --calibrate` runs this for several P and fits the machine file
// (docs/Planner.md, "Calibration").
//
//   mpirun -np P summa-calibrate --out FILE [--quick]
//
//===----------------------------------------------------------------------===//

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
  std::string out;
  /// Tiny sizes and short trials (a test that the program runs).
  bool quick = false;
};

double now() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

/// Seconds per call of `call` on the slowest rank: every rank repeats it
/// often enough to take about `minSeconds / 3` (a count agreed on by all,
/// as collectives must match), three times; the best trial.
double timeCall(const std::function<void()> &call, double minSeconds) {
  call(); // warm up
  MPI_Barrier(MPI_COMM_WORLD);
  double once = now();
  call();
  once = now() - once;
  MPI_Allreduce(MPI_IN_PLACE, &once, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int64_t reps = std::max<int64_t>(
      1,
      std::min<int64_t>(1000000, static_cast<int64_t>(minSeconds / 3 /
                                                      std::max(once, 1e-9))));
  double best = 1e30;
  for (int trial = 0; trial < 3; ++trial) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (int64_t r = 0; r < reps; ++r)
      call();
    double perCall = (now() - t0) / static_cast<double>(reps);
    MPI_Allreduce(MPI_IN_PLACE, &perCall, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    best = std::min(best, perCall);
  }
  return best;
}

intptr_t address(void *p) { return reinterpret_cast<intptr_t>(p); }

struct GemmSample {
  int64_t m, n, k;
  double seconds;
};

std::vector<GemmSample> measureGemm(const Options &options) {
  std::vector<GemmSample> samples;
  std::vector<GemmSample> shapes =
      options.quick
          ? std::vector<GemmSample>{{16, 16, 16, 0},
                                    {32, 32, 32, 0},
                                    {2, 64, 32, 0}}
          // Square and wide products (the flop rate), then products of two
          // rows by a weight of 64 MiB, larger than the caches (a decode
          // step's: the rate of the bytes).
          : std::vector<GemmSample>{{64, 64, 64, 0},     {128, 128, 128, 0},
                                    {256, 256, 256, 0},  {128, 768, 768, 0},
                                    {128, 3072, 768, 0}, {512, 512, 512, 0},
                                    {2, 8192, 2048, 0},  {2, 2048, 8192, 0}};
  for (GemmSample s : shapes) {
    std::vector<float> a(s.m * s.k, 0.5f), b(s.k * s.n, 0.25f),
        c(s.m * s.n, 0.0f);
    s.seconds = timeCall(
        [&] {
          summaRtMatmul(SUMMA_DT_F32, address(a.data()), 0, s.k,
                        address(b.data()), 0, s.n, address(c.data()), 0, s.n,
                        s.m, s.n, s.k, 0, 0, 0);
        },
        options.quick ? 0.005 : 0.2);
    samples.push_back(s);
  }
  return samples;
}

struct MemorySample {
  int64_t bytes = 0;
  double oneRankSeconds = 0, allRanksSeconds = 0;
};

/// One elementwise pass over arrays of `n` floats: reads a and b, writes c.
void stream(std::vector<float> &a, std::vector<float> &b,
            std::vector<float> &c) {
  const float s = 0.5f;
  const float *pa = a.data(), *pb = b.data();
  float *pc = c.data();
  size_t n = c.size();
  for (size_t i = 0; i < n; ++i)
    pc[i] = pa[i] + s * pb[i];
  // Keep the pass: the result is read.
  volatile float sink = pc[n / 2];
  (void)sink;
}

MemorySample measureMemory(const Options &options, int rank) {
  size_t n = options.quick ? (1u << 16) : (1u << 22); // 16 MiB per array
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
  MemorySample sample;
  sample.bytes = static_cast<int64_t>(3 * n * sizeof(float));
  double minSeconds = options.quick ? 0.005 : 0.3;
  sample.allRanksSeconds = timeCall([&] { stream(a, b, c); }, minSeconds);
  // Rank 0 alone while the others wait.
  double alone = 1e30;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    stream(a, b, c);
    for (int trial = 0; trial < 3; ++trial) {
      int64_t reps = 0;
      double t0 = now();
      do {
        stream(a, b, c);
        ++reps;
      } while (now() - t0 < minSeconds / 3);
      alone = std::min(alone, (now() - t0) / static_cast<double>(reps));
    }
  }
  MPI_Bcast(&alone, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  sample.oneRankSeconds = alone;
  return sample;
}

struct CollectiveSamples {
  const char *op;
  int64_t groupSize;
  int32_t mask;
  std::vector<std::pair<int64_t, double>> samples; // (payload bytes, s)
  /// Seconds a one-element call adds to a short local loop before it: the
  /// latency inside a program, where the ranks of a group do not arrive
  /// in lockstep (on an oversubscribed machine, a partner may not even be
  /// scheduled).
  double inProgramSeconds = 0;
};

/// A short local loop nest (about 10 us on one core): the work a program
/// does between two collectives.
struct ShortWork {
  std::vector<float> a = std::vector<float>(16384, 1.0f),
                     b = std::vector<float>(16384, 2.0f);
  void operator()() {
    float *pa = a.data();
    const float *pb = b.data();
    for (size_t i = 0; i < a.size(); ++i)
      pa[i] = pa[i] * 0.999f + pb[i];
  }
};

/// The grid [q, q, d] the run lays its P ranks on: the largest q with
/// q * q dividing P, so that groups of several sizes run at once, as in a
/// compiled program.
void chooseGrid(int64_t ranks, int64_t &q, int64_t &d) {
  q = 1;
  for (int64_t c = 1; c * c <= ranks; ++c)
    if (ranks % (c * c) == 0)
      q = c;
  d = ranks / (q * q);
}

/// One axes mask for each group size the grid has (the fewest axes first),
/// every rank in a group of that size at once.
std::vector<std::pair<int64_t, int32_t>> groupMasks(int64_t q, int64_t d) {
  std::vector<std::pair<int64_t, int32_t>> masks;
  const int32_t order[] = {1 << SUMMA_AXIS_COL,
                           1 << SUMMA_AXIS_ROW,
                           1 << SUMMA_AXIS_DEPTH,
                           (1 << SUMMA_AXIS_ROW) | (1 << SUMMA_AXIS_COL),
                           (1 << SUMMA_AXIS_COL) | (1 << SUMMA_AXIS_DEPTH),
                           (1 << SUMMA_AXIS_ROW) | (1 << SUMMA_AXIS_DEPTH),
                           7};
  for (int32_t mask : order) {
    int64_t size =
        ((mask & 1) ? q : 1) * ((mask & 2) ? q : 1) * ((mask & 4) ? d : 1);
    bool seen = false;
    for (auto &m : masks)
      seen |= m.first == size;
    if (size > 1 && !seen)
      masks.push_back({size, mask});
  }
  return masks;
}

/// Each collective over each group size of the grid, every group at once,
/// for `counts` f32 elements in the buffer the runtime counts.
std::vector<CollectiveSamples> measureCollectives(const Options &options,
                                                  int64_t q, int64_t d) {
  std::vector<CollectiveSamples> result;
  std::vector<int64_t> counts =
      options.quick ? std::vector<int64_t>{1, 256}
                    : std::vector<int64_t>{1, 64, 1024, 16384, 262144, 1048576};
  double minSeconds = options.quick ? 0.005 : 0.06;
  const char *ops[] = {"broadcast", "reduce", "all_reduce", "all_gather",
                       "reduce_scatter"};
  ShortWork work;
  double workAlone = timeCall([&] { work(); }, minSeconds);
  for (auto [size, mask] : groupMasks(q, d))
    for (const char *op : ops) {
      CollectiveSamples entry{op, size, mask, {}};
      for (int64_t n : counts) {
        std::vector<float> buffer(n * size, 1.0f), other(n * size, 0.0f);
        intptr_t buf = address(buffer.data()), dst = address(other.data());
        std::function<void()> call;
        std::string name = op;
        if (name == "broadcast")
          call = [&] { summaRtBroadcast(buf, 0, n, SUMMA_DT_F32, mask, 0); };
        else if (name == "reduce")
          call = [&] {
            summaRtReduce(buf, 0, n, SUMMA_DT_F32, mask, 0, SUMMA_RED_SUM);
          };
        else if (name == "all_reduce")
          call = [&] {
            summaRtAllReduce(buf, 0, n, SUMMA_DT_F32, mask, SUMMA_RED_SUM);
          };
        else if (name == "all_gather")
          call = [&] {
            summaRtAllGather(buf, 0, dst, 0, 1, n, SUMMA_DT_F32, mask);
          };
        else
          call = [&] {
            summaRtReduceScatter(buf, 0, dst, 0, 1, n, SUMMA_DT_F32, mask,
                                 SUMMA_RED_SUM);
          };
        entry.samples.push_back({n * static_cast<int64_t>(sizeof(float)),
                                 timeCall(call, minSeconds)});
        if (n == counts.front())
          entry.inProgramSeconds = std::max(0.0, timeCall(
                                                     [&] {
                                                       work();
                                                       call();
                                                     },
                                                     minSeconds) -
                                                     workAlone);
      }
      result.push_back(entry);
    }
  return result;
}

bool parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--quick") {
      options.quick = true;
    } else if ((arg == "--out" || arg == "-o") && i + 1 < argc) {
      options.out = argv[++i];
    } else {
      std::fprintf(stderr,
                   "summa-calibrate: unknown option '%s'\n"
                   "usage: mpirun -np P summa-calibrate --out FILE "
                   "[--quick]\n",
                   arg.c_str());
      return false;
    }
  }
  if (options.out.empty()) {
    std::fprintf(stderr, "summa-calibrate: --out FILE is required\n");
    return false;
  }
  return true;
}

void writeJson(std::FILE *f, int64_t ranks, const Options &options,
               const std::vector<GemmSample> &gemm, const MemorySample &memory,
               const std::vector<CollectiveSamples> &collectives) {
  std::fprintf(f, "{\n  \"ranks\": %lld,\n  \"cores\": %u,\n  \"quick\": %s,\n",
               static_cast<long long>(ranks),
               std::thread::hardware_concurrency(),
               options.quick ? "true" : "false");
  // What computed the products (the BLAS's kernels), as a JSON string.
  std::string kernels;
  for (const char *c = summaRtKernelInfo(0); *c; ++c) {
    if (*c == '"' || *c == '\\')
      kernels += '\\';
    if (static_cast<unsigned char>(*c) >= 0x20)
      kernels += *c;
  }
  std::fprintf(f, "  \"kernels\": \"%s\",\n", kernels.c_str());
  std::fprintf(f, "  \"gemm\": [");
  for (size_t i = 0; i < gemm.size(); ++i)
    std::fprintf(f,
                 "%s\n    {\"dtype\": \"f32\", \"m\": %lld, \"n\": %lld, "
                 "\"k\": %lld, \"seconds\": %.9g}",
                 i ? "," : "", static_cast<long long>(gemm[i].m),
                 static_cast<long long>(gemm[i].n),
                 static_cast<long long>(gemm[i].k), gemm[i].seconds);
  std::fprintf(f, "\n  ],\n");
  std::fprintf(f,
               "  \"local\": {\"bytes\": %lld, \"one_rank_seconds\": %.9g, "
               "\"all_ranks_seconds\": %.9g},\n",
               static_cast<long long>(memory.bytes), memory.oneRankSeconds,
               memory.allRanksSeconds);
  std::fprintf(f, "  \"collectives\": [");
  for (size_t i = 0; i < collectives.size(); ++i) {
    std::fprintf(f,
                 "%s\n    {\"op\": \"%s\", \"group_size\": %lld, "
                 "\"mask\": %d, \"in_program_seconds\": %.9g, "
                 "\"samples\": [",
                 i ? "," : "", collectives[i].op,
                 static_cast<long long>(collectives[i].groupSize),
                 collectives[i].mask, collectives[i].inProgramSeconds);
    const auto &samples = collectives[i].samples;
    for (size_t s = 0; s < samples.size(); ++s)
      std::fprintf(f, "%s{\"bytes\": %lld, \"seconds\": %.9g}", s ? ", " : "",
                   static_cast<long long>(samples[s].first), samples[s].second);
    std::fprintf(f, "]}");
  }
  std::fprintf(f, "\n  ]\n}\n");
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options))
    return 2;
  int size = 1;
  {
    // The world size, before the runtime checks it against the grid.
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized)
      MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  int64_t q, d;
  chooseGrid(size, q, d);
  summaRtInit(&argc, &argv, q, d);
  int rank = static_cast<int>(summaRtWorldRank());
  std::vector<GemmSample> gemm = measureGemm(options);
  MemorySample memory = measureMemory(options, rank);
  std::vector<CollectiveSamples> collectives =
      measureCollectives(options, q, d);
  int status = 0;
  if (rank == 0) {
    std::FILE *f = std::fopen(options.out.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "summa-calibrate: cannot write '%s': %s\n",
                   options.out.c_str(), std::strerror(errno));
      status = 1;
    } else {
      writeJson(f, size, options, gemm, memory, collectives);
      status = std::fclose(f) == 0 ? 0 : 1;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  summaRtFinalize();
  return status;
}
