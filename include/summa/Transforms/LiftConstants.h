//===- LiftConstants.h - large constants as arguments -----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The rule of summa-lift-constants as a function, for the pass and for
// summa-compile --save-constants, which writes the lifted values to a file.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_LIFTCONSTANTS_H
#define SUMMA_TRANSFORMS_LIFTCONSTANTS_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::summa {

/// A constant turned into an argument: the argument's summa.name and the
/// constant's value.
struct LiftedConstant {
  std::string name;
  ElementsAttr value;
};

/// Turns every non-splat floating-point tensor constant of at least
/// `minElements` elements in a public function of `module` into a new
/// trailing argument (summa-lift-constants); appends each to `lifted` when
/// given, in argument order.
LogicalResult liftConstants(ModuleOp module, int64_t minElements,
                            SmallVectorImpl<LiftedConstant> *lifted = nullptr);

} // namespace mlir::summa

#endif // SUMMA_TRANSFORMS_LIFTCONSTANTS_H
