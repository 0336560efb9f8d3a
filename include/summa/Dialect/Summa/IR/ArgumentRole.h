//===- ArgumentRole.h - what an entry argument is ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The typed reads of an entry function's argument and result attributes:
// the role an argument plays (`summa.role`), how the driver fills it
// (`summa.init`), both ODS enums (SummaAttrs.td) whose spellings the
// dialect's verifier checks, and the argument a result updates
// (`summa.updates`). Every pass, the planner and the driver read them here.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_ARGUMENTROLE_H
#define SUMMA_DIALECT_SUMMA_IR_ARGUMENTROLE_H

#include "summa/Dialect/Summa/IR/SummaDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace mlir::summa {

/// The role `summa.role` gives argument `index` of `func`; none where it
/// has none, and each reader applies its default for unannotated arguments
/// (summa-assign-layouts: by its uses; summa-differentiate: params=floats;
/// the planner: by its layout or its products).
std::optional<ArgumentRole> getArgumentRole(func::FuncOp func, unsigned index);

/// Whether `role` is a parameter that summa-differentiate computes the
/// gradient of (a weight or a bias).
inline bool isTrainedRole(std::optional<ArgumentRole> role) {
  return role == ArgumentRole::Weight || role == ArgumentRole::Bias;
}

/// The spellings of the roles, for messages: "activation, weight, bias,
/// replicated or state".
std::string listArgumentRoles();

/// How `summa.init` says the driver fills argument `index` of `func`, or
/// none (uniform values, weights scaled by 1/sqrt(fan-in)).
std::optional<InitKind> getInitKind(func::FuncOp func, unsigned index);

/// The argument of `func` that its result `index` is the updated value of
/// (`summa.updates`: a parameter after its optimizer step), or null where
/// there is none or the attribute names no argument.
BlockArgument getUpdatedArgument(func::FuncOp func, unsigned index);

} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_IR_ARGUMENTROLE_H
