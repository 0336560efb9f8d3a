//===- Passes.h - summa code generation passes ------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The code generation passes of both targets (Passes.td): lib/Codegen/CPU
// and lib/Codegen/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_CODEGEN_PASSES_H
#define SUMMA_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::summa {

#define GEN_PASS_DECL
#include "summa/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "summa/Codegen/Passes.h.inc"

} // namespace mlir::summa

#endif // SUMMA_CODEGEN_PASSES_H
