//===- Optimizer.h - the update a derived training step ends with -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The optimizer step summa-differentiate appends to a derived training step:
// plain SGD, SGD with momentum or AdamW (decoupled weight decay), with
// global-norm gradient clipping and a learning-rate schedule, each computed
// as PyTorch's torch.optim and clip_grad_norm_ compute it, in linalg on
// tensors (so the partitioner lays the state out like the parameters).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_OPTIMIZER_H
#define SUMMA_TRANSFORMS_OPTIMIZER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::summa {

struct OptimizerOptions {
  /// "sgd", "momentum" or "adamw".
  std::string kind = "sgd";
  double lr = 0.0;
  /// SGD with momentum (torch.optim.SGD(momentum=...), no dampening).
  double momentum = 0.9;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  /// Decoupled weight decay (AdamW), on the parameters of rank >= 2 unless
  /// `decayAll`.
  double weightDecay = 0.0;
  bool decayAll = false;
  /// Global L2 norm clipping of the gradients (0: none).
  double clipNorm = 0.0;
  /// "constant", "cosine" or "linear": nanoGPT's get_lr.
  std::string schedule = "constant";
  int64_t warmup = 0, decaySteps = 0;
  double minLr = 0.0;

  /// Whether the step needs the step counter (a schedule, AdamW's bias
  /// correction).
  bool needsStep() const { return kind == "adamw" || schedule != "constant"; }
  /// An empty string, or why the options are inconsistent.
  std::string validate() const;
};

/// The results the optimizer step adds to a training step, in order, and
/// the attributes each takes.
struct OptimizerResults {
  SmallVector<Value> values;
  SmallVector<NamedAttrList> attrs;
};

/// Builds, at `b`'s insertion point in `func` (before its return), the
/// update of `params` (arguments of `func`) from their gradients `grads`.
/// Appends the arguments the step reads to `func`: the step counter (`step`,
/// i64, zero if not given) where needed, and per parameter its state
/// (`<name>.momentum_buffer`, or `<name>.exp_avg` and `<name>.exp_avg_sq`;
/// role "state", zeros if not given). Returns the new parameters, the new
/// state and the next step counter (each marked summa.updates of its
/// argument), then the learning rate and the gradient norm (named "lr" and
/// "grad_norm") where the options compute them.
FailureOr<OptimizerResults> buildOptimizerStep(OpBuilder &b, func::FuncOp func,
                                               ArrayRef<unsigned> params,
                                               ArrayRef<Value> grads,
                                               const OptimizerOptions &options);

/// Ends a derived training step at `b`'s insertion point: a func.return of
/// the loss, the gradients (with `returnGradients`, or without an update),
/// then what buildOptimizerStep returns where `options` has a learning
/// rate; sets `func`'s type and result attributes to match. The caller
/// erases the return it replaces.
LogicalResult returnStep(OpBuilder &b, func::FuncOp func, Location loc,
                         Value loss, ArrayRef<unsigned> params,
                         ArrayRef<Value> grads, const OptimizerOptions &options,
                         bool returnGradients);

} // namespace mlir::summa

#endif // SUMMA_TRANSFORMS_OPTIMIZER_H
