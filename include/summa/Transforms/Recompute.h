//===- Recompute.h - where a derived backward recomputes --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Activation recompute (summa-differentiate recompute=layers|attention).
// With layers, the forward
// is cut into segments at values that alone carry the batch from one part
// of the model to the next (the residual stream between layers, and between
// a layer's attention and its MLP). Only those values are kept for the
// backward; before the backward of a segment the segment's forward is
// computed again from them, so at most one segment's activations are alive
// at a time (PyTorch's torch.utils.checkpoint on each block).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_RECOMPUTE_H
#define SUMMA_TRANSFORMS_RECOMPUTE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::summa {

/// The positions in `ops` (the forward's ops, in order, of `func`'s body)
/// where a segment begins, after the first. A position i is a candidate
/// when exactly one value that depends on the batch (an argument that is
/// not a parameter and not "replicated") is defined before i and used at
/// or after i; between two products (linalg.matmul, contractions) the last
/// candidate is the cut, so that each segment is a sub-layer that begins
/// with the residual stream (before a layer normalisation). The part after
/// the last cut holds the last product and the loss.
SmallVector<size_t> findRecomputeCuts(func::FuncOp func,
                                      ArrayRef<Operation *> ops,
                                      ArrayRef<unsigned> params);

/// The ranges [begin, end) of `ops` that recompute=attention computes
/// again before their backward: from a product of two values that depend on
/// the batch (attention's scores, Q·Kᵀ) to the next such product that reads
/// what it computes (the probabilities times V), both included. Only the
/// query, key and value (and the output) are kept for the backward, not
/// the scores and probabilities of every head (Megatron's selective
/// recompute).
SmallVector<std::pair<size_t, size_t>>
findAttentionRanges(func::FuncOp func, ArrayRef<Operation *> ops,
                    ArrayRef<unsigned> params);

} // namespace mlir::summa

#endif // SUMMA_TRANSFORMS_RECOMPUTE_H
