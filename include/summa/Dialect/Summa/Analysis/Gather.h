//===- Gather.h - reads of a tensor at computed indices ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A gather is how exporters write an embedding lookup and the logit a
// cross-entropy picks: a parallel linalg.generic whose body yields
// `tensor.extract %table[...]` of a tensor defined outside it, each index a
// loop (`linalg.index`) or a value computed from the op's inputs (a token
// id). The layout rule, the partitioner and summa-differentiate all read
// gathers through this one description.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_ANALYSIS_GATHER_H
#define SUMMA_DIALECT_SUMMA_ANALYSIS_GATHER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::summa {

struct Gather {
  linalg::GenericOp op;
  /// The read, yielded as it is.
  tensor::ExtractOp read;
  /// Per dimension of the table: the loop whose `linalg.index` indexes it,
  /// or std::nullopt for an index computed from data.
  SmallVector<std::optional<unsigned>> loops;

  Value getTable() { return read.getTensor(); }
  /// Whether table dimension `d` is indexed by a computed value.
  bool isComputed(unsigned d) { return !loops[d].has_value(); }
  /// The loops that index no table dimension (a token's batch and sequence
  /// position in an embedding lookup), in order.
  SmallVector<unsigned> getFreeLoops();
};

/// `op` as a gather: a generic of one result and only parallel loops whose
/// body yields `tensor.extract` of a tensor defined outside the op, read
/// nowhere else in the body. `table`, if
/// given, must be that tensor.
std::optional<Gather> matchGather(Operation *op, Value table = {});

/// The adjoint of the table of `gather` for the adjoint `dOut` of its
/// result, accumulated onto `init` (zeros of the table's type). A
/// summa.scatter (a scatter-add of `dOut`'s slices into the rows the
/// computed indices name: O(updates)) where the computed indices depend on
/// the free loops alone and every other loop indexes the table directly;
/// otherwise a one-hot generic over the gather's loops and the computed
/// dimensions (the way JAX's one-hot models write it).
Value buildGatherAdjoint(OpBuilder &b, Gather gather, Value dOut, Value init);

/// `dOut` with zeros where `gather` reads row `row` of its table (the
/// table's first dimension): lookups of a padding index add nothing to the
/// table's adjoint, as PyTorch's nn.Embedding(padding_idx) backward (the
/// summa.padding_idx of an argument). A generic over the gather's loops
/// that computes the indices as the gather does: O(dOut).
Value maskGatherRow(OpBuilder &b, Gather gather, Value dOut, int64_t row);

} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_ANALYSIS_GATHER_H
