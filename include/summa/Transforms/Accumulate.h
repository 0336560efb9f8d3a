//===- Accumulate.h - gradient accumulation over micro-batches --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The training step summa-differentiate derives with accumulate=K: the
// forward and backward of K micro-batches one after the other (each one's
// activations dead before the next begins), their gradients summed, then
// one optimizer update: what PyTorch computes with `(loss / K).backward()`
// on each micro-batch and one `optimizer.step()`.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_ACCUMULATE_H
#define SUMMA_TRANSFORMS_ACCUMULATE_H

#include "summa/Transforms/Optimizer.h"

namespace mlir::summa {

/// The arguments of `func` that carry the batch: tensors that are neither
/// parameters (`params`, argument numbers) nor "replicated" (token ids,
/// labels, activations).
SmallVector<BlockArgument> batchArguments(func::FuncOp func,
                                          ArrayRef<unsigned> params);

/// Rewrites `step` (a function with `micro`'s arguments) into the step of
/// K micro-batches: its batch arguments (every tensor argument that is not
/// a parameter, not "replicated" and has the leading dimension b of the
/// first such one) take K·b rows, and its body is K copies of `micro`'s
/// body, copy k reading micro-batch k (rows k, k + K, k + 2K, ... of
/// dimension 0, so that a batch split over the grid is sliced where it
/// lies), then the sum of their gradients and returnStep. `micro` returns
/// the loss of one micro-batch and the gradients of `params` (in order),
/// seeded with 1/K.
LogicalResult buildAccumulatedStep(func::FuncOp step, func::FuncOp micro,
                                   int64_t microBatches,
                                   ArrayRef<unsigned> params,
                                   const OptimizerOptions &options,
                                   bool returnGradients);

} // namespace mlir::summa

#endif // SUMMA_TRANSFORMS_ACCUMULATE_H
