//===- Partitioner.h - summa-partition's per-function state -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The state summa-partition keeps for one function, shared by its files and
// seen by the op rules (lib/Dialect/Summa/OpRules/) as a PartitionState:
// Partition.cpp (the walk, local types, reductions, contractions),
// PartitionRelayout.cpp (redistributions and constants) and
// PartitionGather.cpp (gathers and scatters at computed indices).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_PARTITIONER_H
#define SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_PARTITIONER_H

#include "summa/Dialect/Summa/Analysis/Gather.h"
#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::summa {

/// Partitions one function; the op rules (PartitionRuleOpInterface) reach
/// it as their PartitionState.
class FunctionPartitioner : public PartitionState {
public:
  FunctionPartitioner(func::FuncOp func, bool remarks)
      : func(func), remarks(remarks) {}
  LogicalResult run();

  // PartitionState.
  LogicalResult localizeResults(Operation *op) override;
  SmallVector<int64_t> localOffsets(ArrayRef<int64_t> offsets,
                                    Value tensor) override;
  LogicalResult partitionStructured(Operation *op) override;
  LogicalResult partitionScatterOp(Operation *op) override;
  LogicalResult partitionConstantOp(Operation *op) override;
  LogicalResult lowerRelayoutOp(Operation *op) override;

private:
  /// The tile type of a value of `type` laid out by `attr`.
  FailureOr<Type> localType(Type type, Attribute attr, Location loc);
  LogicalResult partitionOp(Operation *op);
  /// Offsets `linalg.index` of split loop dimensions by the rank's block.
  LogicalResult globalizeIndices(linalg::LinalgOp op);
  /// Completes the partial results of a reduction over split dimensions.
  void completeReduction(Operation *op);
  /// The global size of dimension `dim` of `v` and, where its split is
  /// uneven (padded blocks), the number of elements of it this rank holds
  /// that are not padding (computed before `at`); null where it is even.
  Value validExtent(OpBuilder &at, Value v, unsigned dim);
  /// A reduction over a loop split unevenly: padded iterations leave the
  /// accumulators as they are.
  LogicalResult maskPaddedReductions(linalg::LinalgOp op);
  /// `v` (a local tile) with the padding of dimension `dim` zeroed: the
  /// contracted dimension of a product must add nothing there.
  Value zeroPadding(OpBuilder &b, Value v, unsigned dim, Value valid);
  /// This rank's block index over `axes` (mixed radix, outer axis first).
  Value blockIndex(OpBuilder &b, Location loc, LayoutAttr layout,
                   ArrayRef<GridAxis> axes);
  /// The local tile of `value`, whose dimensions are whole where `target`
  /// splits them, sliced to this rank's blocks of `target` (no
  /// communication).
  Value sliceToLayout(OpBuilder &b, Location loc, Value value,
                      LayoutAttr target);
  /// summa.relayout: all-gathers of the dimensions whose split changes,
  /// then a local slice.
  LogicalResult lowerRelayout(RelayoutOp op);
  /// The last step of lowerRelayout: `v`, whose dimensions are split as
  /// `gathered` says (and `within`: splits inside this rank's blocks),
  /// sliced to this rank's blocks of `to`; the slice described on `os`.
  Value sliceToTarget(OpBuilder &b, Location loc, Value v, LayoutAttr to,
                      ArrayRef<DimLayout> gathered, ArrayRef<DimLayout> within,
                      raw_ostream &os);
  /// A summa.relayout of `v` (a local tile) to `target`, built at `b`,
  /// typed and recorded with the global type `global`, for lowerRelayout
  /// to lower.
  RelayoutOp createRelayout(OpBuilder &b, Location loc, Value v,
                            LayoutAttr target, RankedTensorType global);
  /// A relayout of a sum all-reduced over axes A (a partial result just
  /// completed) to a layout that splits one dimension further by exactly A:
  /// one summa.reduce_scatter instead (half the bytes, no slice). Fails,
  /// changing nothing, for any other relayout.
  LogicalResult scatterReduction(RelayoutOp op, LayoutAttr from, LayoutAttr to);
  /// A relayout that slices the result of an elementwise generic (identity
  /// maps, no indices) that only it reads, one of whose inputs is a sum
  /// scatterReduction can scatter (the two gradients of a tied embedding
  /// added): the generic computes the slice from its inputs' slices. Fails,
  /// changing nothing, otherwise.
  LogicalResult sliceElementwise(RelayoutOp op, LayoutAttr from, LayoutAttr to);
  /// A non-splat constant laid out with splits: the whole constant, then
  /// this rank's slice of it.
  LogicalResult partitionConstant(arith::ConstantOp op, LayoutAttr layout);
  /// A linalg.matmul whose operands have the SUMMA layouts of its form
  /// becomes summa.matmul; any other one is local (no contracted dimension
  /// is split).
  LogicalResult partitionMatmul(linalg::MatmulOp mm, LayoutAttr layout);
  /// A product of `form` whose operands are not in its SUMMA layouts, as a
  /// local product (see its definition).
  LogicalResult partitionLocalMatmul(linalg::MatmulOp mm, MatmulForm form,
                                     LayoutAttr layout);
  /// The padding of `mm`'s contracted dimension zeroed in both operands
  /// where it is split unevenly (one zero against the other's garbage
  /// could still be a NaN).
  void zeroContractedPadding(OpBuilder &b, linalg::MatmulOp mm,
                             MatmulForm form);
  /// A gather from a table split along a computed index: the read takes
  /// local indices, and the rows this rank does not own read as zero.
  LogicalResult partitionGather(Gather gather);
  /// A scatter into a tensor split along a computed index: local indices
  /// (the updates of other ranks' rows fall outside and are skipped).
  LogicalResult partitionScatter(ScatterOp op);
  GridOp getGrid(LayoutAttr layout) {
    return lookupGrid(func, layout.getGrid());
  }
  func::FuncOp func;
  bool remarks;
  /// The layout of every tensor value, read before any type changes.
  DenseMap<Value, LayoutAttr> valueLayouts;
  /// The global type of every tensor value, read before any type changes.
  DenseMap<Value, RankedTensorType> globalTypes;
};

} // namespace mlir::summa

#endif // SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_PARTITIONER_H
