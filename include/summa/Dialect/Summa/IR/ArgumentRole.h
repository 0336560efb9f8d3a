//===- ArgumentRole.h - the role of an entry argument -----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The role an argument of an entry function plays (`summa.role`): the one
// function every pass and the planner read it through, and its spellings.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_ARGUMENTROLE_H
#define SUMMA_DIALECT_SUMMA_IR_ARGUMENTROLE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace summa {

/// What an argument is to the model.
enum class ArgumentRole {
  /// No `summa.role`: each reader applies its default for unannotated
  /// arguments (summa-assign-layouts: by its uses; summa-differentiate:
  /// params=floats; the planner: by its layout or its products).
  None,
  /// Carries the tokens (split over depth and rows).
  Activation,
  /// A parameter read by products (split over rows and columns).
  Weight,
  /// A parameter added along the hidden dimension.
  Bias,
  /// Whole on every rank.
  Replicated,
  /// Optimizer state (momentum, Adam's moments).
  State,
  /// A `summa.role` string that names no role.
  Unknown,
};

/// The role `summa.role` gives argument `index` of `func`.
ArgumentRole getArgumentRole(func::FuncOp func, unsigned index);

/// The role spelled `s` (Unknown if none is).
ArgumentRole parseArgumentRole(StringRef s);

/// The spelling of `role` (empty for None and Unknown).
StringRef stringifyArgumentRole(ArgumentRole role);

/// Whether `role` is a parameter that summa-differentiate computes the
/// gradient of (a weight or a bias).
inline bool isTrainedRole(ArgumentRole role) {
  return role == ArgumentRole::Weight || role == ArgumentRole::Bias;
}

} // namespace summa
} // namespace mlir

#endif // SUMMA_DIALECT_SUMMA_IR_ARGUMENTROLE_H
