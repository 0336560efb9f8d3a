//===- Run.h - summaRtMain, shared by both backends -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The driver of compiled programs: each backend's summaRtMain calls run()
// with its Backend (runtime/cpu/Driver.cpp, runtime/gpu/Driver.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_RUN_H
#define SUMMA_RUNTIME_TOOLING_RUN_H

#include "Backend.h"

#include "summa/Runtime/SummaRuntime.h"

namespace summa::rt::driver {

/// summaRtMain of a backend.
int run(int argc, char **argv, const SummaProgramDesc *program,
        const Backend &backend);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_RUN_H
