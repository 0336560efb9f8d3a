//===- FaultTest.cpp - faults at run time, through summaRtMain --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `summa-fault-test CASE [driver options]` runs a small program through
// summaRtMain, like a binary from summa-compile, on the grid [q, q, d] of
// SUMMA_FAULT_GRID=q,d (default 2,1: four ranks), and injects one fault on
// the rank SUMMA_FAULT_RANK (default 1):
//
//   ok               no fault
//   early-exit       exit(3) before the all-reduce the other ranks wait in
//   early-exit-zero  exit(0) there: leaving without MPI_Finalize is a fault
//                    even with status 0
//   killed           SIGKILL there
//   bad-root         a broadcast with root 7 (outside its group of q) while
//                    the other ranks broadcast from root 0
//   count-mismatch   the faulty rank receives 4 elements of a broadcast whose
//                    root sends 64 (MPI reports a truncation)
//   oom              an input whose tile is 2^20 x 2^20 f32 (4 TiB) per rank
//   oom-overflow     an input whose tile has 2^72 elements: its byte count
//                    does not fit in 64 bits
//
// The program: y[m] = sum_k x[m, k], x laid out [[depth, row], [col]], y
// [[depth, row]]; local row sums, an all-reduce along the row, and a
// broadcast along the row that leaves y unchanged. --check compares with the
// reference, so a fault that corrupts y silently would fail the check.
// runtime/test/faults/CMakeLists.txt runs each case through fault.sh.
//
//===----------------------------------------------------------------------===//

#include "summa/Runtime/SummaRuntime.h"

#include "ProgramDescs.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int64_t kTileM = 3;
constexpr int64_t kTileK = 4;

std::string faultCase = "ok";
int64_t gridQ = 2;
int64_t gridD = 1;
int64_t faultRank = 1;
SummaTensorDesc descs[3];

intptr_t address(const void *pointer) {
  return reinterpret_cast<intptr_t>(pointer);
}

bool isFaultyRank() { return summaRtWorldRank() == faultRank; }

void spmd(void **buffers) {
  const float *x = static_cast<const float *>(buffers[0]);
  float *y = static_cast<float *>(
      buffers[faultCase == "oom" || faultCase == "oom-overflow" ? 2 : 1]);
  for (int64_t m = 0; m < kTileM; ++m) {
    float sum = 0;
    for (int64_t k = 0; k < kTileK; ++k)
      sum += x[m * kTileK + k];
    y[m] = sum;
  }
  if (isFaultyRank()) {
    std::fflush(stdout);
    if (faultCase == "early-exit")
      std::exit(3);
    if (faultCase == "early-exit-zero")
      std::exit(0);
    if (faultCase == "killed")
      std::raise(SIGKILL);
  }
  constexpr int32_t col = 1 << SUMMA_AXIS_COL;
  summaRtAllReduce(address(y), 0, kTileM, SUMMA_DT_F32, col, SUMMA_RED_SUM);

  // Broadcast y from the first column along the row: every column holds the
  // same sums already, so y does not change.
  std::vector<float> panel(64, 0.0f);
  std::memcpy(panel.data(), y, kTileM * sizeof(float));
  int64_t root = 0;
  int64_t count = static_cast<int64_t>(panel.size());
  if (isFaultyRank() && faultCase == "bad-root")
    root = 7;
  if (isFaultyRank() && faultCase == "count-mismatch")
    count = 4;
  summaRtBroadcast(address(panel.data()), 0, count, SUMMA_DT_F32, col, root);
  std::memcpy(y, panel.data(), kTileM * sizeof(float));
}

void reference(void **buffers) {
  const SummaTensorDesc &x = descs[0];
  for (int64_t m = 0; m < x.globalShape[0]; ++m) {
    float sum = 0;
    for (int64_t k = 0; k < x.globalShape[1]; ++k)
      sum += static_cast<const float *>(buffers[0])[m * x.globalShape[1] + k];
    static_cast<float *>(buffers[descs[1].rank == 1 ? 1 : 2])[m] = sum;
  }
}

void setShape(SummaTensorDesc &desc, const char *name,
              std::vector<int64_t> local,
              std::vector<std::vector<int32_t>> splits) {
  summa::test::setShape(desc, name, SUMMA_DT_F32, std::move(local),
                        std::move(splits), gridQ, gridD);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: summa-fault-test CASE [driver options]\n");
    return 2;
  }
  faultCase = argv[1];
  if (!summa::test::readGrid("summa-fault-test", "SUMMA_FAULT_GRID", gridQ,
                             gridD))
    return 2;
  if (const char *rank = std::getenv("SUMMA_FAULT_RANK"))
    faultRank = std::atoll(rank);

  const int32_t row = SUMMA_AXIS_ROW, col = SUMMA_AXIS_COL,
                depth = SUMMA_AXIS_DEPTH;
  SummaProgramDesc program = {};
  program.name = "fault-test";
  program.q = gridQ;
  program.d = gridD;
  program.spmd = spmd;
  program.reference = reference;
  setShape(descs[0], "x", {kTileM, kTileK}, {{depth, row}, {col}});
  setShape(descs[1], "y", {kTileM}, {{depth, row}});
  program.inputs = &descs[0];
  program.numInputs = 1;
  if (faultCase == "oom" || faultCase == "oom-overflow") {
    // A second, enormous input that the program never touches.
    int64_t side = faultCase == "oom" ? int64_t(1) << 20 : int64_t(1) << 36;
    setShape(descs[2], "y", {kTileM}, {{depth, row}});
    setShape(descs[1], "huge", {side, side}, {{}, {}});
    program.numInputs = 2;
    program.outputs = &descs[2];
  } else if (faultCase == "ok" || faultCase == "early-exit" ||
             faultCase == "early-exit-zero" || faultCase == "killed" ||
             faultCase == "bad-root" || faultCase == "count-mismatch") {
    program.outputs = &descs[1];
  } else {
    std::fprintf(stderr, "summa-fault-test: unknown case '%s'\n",
                 faultCase.c_str());
    return 2;
  }
  program.numOutputs = 1;

  // The driver sees argv[0] and the options after the case.
  argv[1] = argv[0];
  return summaRtMain(argc - 1, argv + 1, &program);
}
