//===- Driver.cpp - summaRtMain, the driver of compiled programs -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The CPU backend's side of the driver (tooling/Run.cpp): tiles are host
// memory, filled on the host (fillHost) from summaRtInputValue, a pure
// function of (seed, input number, global index).
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "DType.h"
#include "Error.h"
#include "Generate.h"
#include "Generator.h"
#include "Model.h"
#include "Run.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace summa::rt;
using summa::rt::driver::Tensor;

//===----------------------------------------------------------------------===//
// The CPU backend of the driver
//===----------------------------------------------------------------------===//

namespace {
size_t elementSize(const SummaTensorDesc &desc, const char *role,
                   const char *name) {
  const char *caller = "summaRtMain";
  const char *typeName = dtypeName(desc.dtype);
  if (desc.dtype != SUMMA_DT_F32 && desc.dtype != SUMMA_DT_F64 &&
      desc.dtype != SUMMA_DT_I64 && desc.dtype != SUMMA_DT_I32) {
    if (typeName)
      fatal("%s: %s '%s' has element type %s, which is not supported by the "
            "CPU backend",
            caller, role, name, typeName);
    fatal("%s: %s '%s' has an invalid element type %d", caller, role, name,
          desc.dtype);
  }
  return checkDataDType(desc.dtype, caller).size;
}

void *allocate(size_t bytes, const std::string &what) {
  return driver::allocateHost(bytes, what);
}

void release(void *buffer) { std::free(buffer); }

void copy(void *dst, const void *src, size_t bytes) {
  std::memcpy(dst, src, bytes);
}

const driver::Backend cpuBackend = {
    /*usageWhere=*/"",
    /*usageEnvironment=*/"", elementSize,
    /*announce=*/nullptr,    allocate,    release,
    driver::fillHost,        copy,
    /*toHost=*/nullptr,
    /*fromHost=*/nullptr,
    /*settle=*/nullptr,
};
} // namespace

int summaRtMain(int argc, char **argv, const SummaProgramDesc *program) {
  return driver::run(argc, argv, program, cpuBackend);
}

int summaRtGenerate(int argc, char **argv, const SummaGenerateDesc *generator) {
  return driver::generate(argc, argv, generator, cpuBackend);
}

SummaModel *summaModelInit(const SummaProgramDesc *program, int64_t comm) {
  return driver::createModel(program, comm, cpuBackend);
}

SummaGenerator *summaGeneratorInit(const SummaGenerateDesc *generator,
                                   int64_t comm) {
  return summa::rt::driver::createGenerator(generator, comm, cpuBackend);
}
