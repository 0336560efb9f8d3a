//===- DumpShim.cpp - LD_PRELOAD shim that dumps each rank's outputs
//-------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// libsumma-dump-shim.so, preloaded into any program that calls summaRtMain
// from libsumma_runtime.so (a binary from summa-compile, the driver tests),
// wraps the program's spmd function: after the first call, every rank
// writes the raw bytes of its output tiles, in output order, to
// $SUMMA_DUMP_OUTPUTS with "%r" replaced by the world rank. Later calls
// (--iters) are compared with the first; a difference is reported on stderr
// ("dump-shim: rank R: call N: output 'y' differs from call 1") and makes
// the process exit 3 after summaRtMain returns. Only meaningful with
// --steps 1 (the default): steps feed outputs back, so their calls differ.
//
// It exists for runtime/test/faults/determinism.sh, which runs the same
// binary twice and compares the dumps bit for bit.
//
// With SUMMA_SHIM_PERTURB_RANK=R it also plants a one-bit fault: after every
// call, rank R flips the lowest bit of the first element of its tile of
// output $SUMMA_SHIM_PERTURB_OUTPUT (default 0), so that one replica of a
// block differs from the others (exact-replicas.sh: --exact-replicas must
// fail on it).
//
// With SUMMA_SHIM_API_VERSION=N, summaRtGetAPIVersion answers N, as a
// runtime library of another version would (abi-mismatch.sh: the program
// must refuse to start, naming both versions).
//
//===----------------------------------------------------------------------===//

#include "summa/Runtime/SummaRuntime.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
using MainFn = int (*)(int, char **, const SummaProgramDesc *);

SummaProgramDesc wrapped;
void (*originalSpmd)(void **) = nullptr;
std::vector<std::vector<char>> firstCall;
long long calls = 0;
bool differed = false;

size_t elementBytes(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F32:
    return 4;
  case SUMMA_DT_F64:
    return 8;
  case SUMMA_DT_F16:
  case SUMMA_DT_BF16:
    return 2;
  default:
    return 0;
  }
}

size_t tileBytes(const SummaTensorDesc &desc) {
  size_t count = 1;
  for (int dim = 0; dim < desc.rank; ++dim)
    count *= static_cast<size_t>(desc.localShape[dim]);
  return count * elementBytes(desc.dtype);
}

std::string dumpPath(const char *pattern, long long rank) {
  std::string path;
  for (const char *c = pattern; *c; ++c) {
    if (c[0] == '%' && c[1] == 'r') {
      path += std::to_string(rank);
      ++c;
    } else {
      path += *c;
    }
  }
  return path;
}

void perturb(void **buffers, long long rank) {
  const char *target = std::getenv("SUMMA_SHIM_PERTURB_RANK");
  if (!target || std::atoll(target) != rank)
    return;
  const char *which = std::getenv("SUMMA_SHIM_PERTURB_OUTPUT");
  int output = which ? std::atoi(which) : 0;
  if (output < 0 || output >= wrapped.numOutputs ||
      tileBytes(wrapped.outputs[output]) == 0)
    return;
  // Little-endian: byte 0 holds the lowest mantissa bit of element 0.
  static_cast<unsigned char *>(buffers[wrapped.numInputs + output])[0] ^= 1;
}

void spmdAndDump(void **buffers) {
  originalSpmd(buffers);
  ++calls;
  long long rank = summaRtWorldRank();
  perturb(buffers, rank);
  if (calls == 1) {
    const char *pattern = std::getenv("SUMMA_DUMP_OUTPUTS");
    FILE *file =
        pattern ? std::fopen(dumpPath(pattern, rank).c_str(), "wb") : nullptr;
    if (pattern && !file) {
      std::fprintf(stderr, "dump-shim: rank %lld: cannot open '%s'\n", rank,
                   dumpPath(pattern, rank).c_str());
      std::exit(2);
    }
    for (int o = 0; o < wrapped.numOutputs; ++o) {
      const char *data =
          static_cast<const char *>(buffers[wrapped.numInputs + o]);
      size_t bytes = tileBytes(wrapped.outputs[o]);
      firstCall.emplace_back(data, data + bytes);
      if (file && std::fwrite(data, 1, bytes, file) != bytes) {
        std::fprintf(stderr, "dump-shim: rank %lld: write failed\n", rank);
        std::exit(2);
      }
    }
    if (file && std::fclose(file) != 0) {
      std::fprintf(stderr, "dump-shim: rank %lld: write failed\n", rank);
      std::exit(2);
    }
    return;
  }
  for (int o = 0; o < wrapped.numOutputs; ++o) {
    const std::vector<char> &first = firstCall[o];
    if (std::memcmp(buffers[wrapped.numInputs + o], first.data(),
                    first.size()) != 0) {
      const char *name = wrapped.outputs[o].name;
      std::fprintf(stderr,
                   "dump-shim: rank %lld: call %lld: output '%s' differs from "
                   "call 1\n",
                   rank, calls, name ? name : "?");
      differed = true;
    }
  }
}
} // namespace

extern "C" SUMMA_RT_EXPORT int summaRtMain(int argc, char **argv,
                                           const SummaProgramDesc *program) {
  auto next = reinterpret_cast<MainFn>(dlsym(RTLD_NEXT, "summaRtMain"));
  if (!next) {
    std::fprintf(stderr, "dump-shim: summaRtMain not found after the shim\n");
    return 2;
  }
  if (!program || !program->spmd)
    return next(argc, argv, program);
  wrapped = *program;
  originalSpmd = program->spmd;
  wrapped.spmd = spmdAndDump;
  int status = next(argc, argv, &wrapped);
  return status == 0 && differed ? 3 : status;
}

extern "C" SUMMA_RT_EXPORT int32_t summaRtGetAPIVersion(void) {
  if (const char *version = std::getenv("SUMMA_SHIM_API_VERSION"))
    return static_cast<int32_t>(std::atoi(version));
  using VersionFn = int32_t (*)(void);
  auto next =
      reinterpret_cast<VersionFn>(dlsym(RTLD_NEXT, "summaRtGetAPIVersion"));
  return next ? next() : -1;
}
