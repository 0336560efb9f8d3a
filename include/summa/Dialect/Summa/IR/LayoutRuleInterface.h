//===- LayoutRuleInterface.h - the rules of an op ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The op-rule interfaces (LayoutRuleInterface.td) and the state of the pass
// that each one's rules read and write: the layout solver's, the
// partitioner's, the differentiator's and the planner's split model's.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_H
#define SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_H

#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/IR/OpDefinition.h"

namespace mlir {
namespace summa {

/// The phases of the layout solver (docs/Layouts.md).
enum class LayoutPhase {
  /// Only anchors (SUMMA contractions) run.
  Contractions,
  /// Every rule runs; a use that disagrees with its value is left alone.
  Propagate,
  /// Every rule runs; a use that disagrees gets a copy or a relayout.
  Resolve,
};

/// What a layout rule sees of the solver: the layouts values have, and the
/// calls by which it states the layouts it wants. Implemented by
/// summa-assign-layouts.
class LayoutRuleState {
public:
  virtual ~LayoutRuleState();

  virtual LayoutPhase getPhase() const = 0;
  /// The grid every layout of this function refers to.
  virtual GridOp getGrid() const = 0;
  /// The layout `v` has, or null.
  virtual LayoutAttr lookup(Value v) const = 0;
  /// The use `operand` wants its value laid out by `layout`.
  virtual void want(OpOperand &operand, LayoutAttr layout) = 0;
  /// The op of `result` produces it laid out by `layout`.
  virtual void define(OpResult result, LayoutAttr layout) = 0;
  /// The layout of `dims` on the grid.
  virtual LayoutAttr make(ArrayRef<DimLayout> dims) const = 0;
  /// The same, or a diagnostic at `op` naming `value` when no layout can
  /// express `dims` (one axis splitting two dimensions).
  virtual FailureOr<LayoutAttr>
  makeChecked(ArrayRef<DimLayout> dims, Operation *op, Value value) const = 0;
  /// The groups that dimension `dim` of `v`, split over `axes`, is
  /// factored into by the slices of it (1 if none).
  virtual int64_t hintedGroups(Value v, unsigned dim,
                               ArrayRef<GridAxis> axes) = 0;
  /// Records that `op` reduces over loops split by `axes`: its results are
  /// partial until all-reduced. Returns false (and records nothing) when an
  /// all-reduce cannot complete it (an unknown combiner, an accumulator
  /// that is not the identity).
  virtual bool recordPartialReduction(Operation *op,
                                      ArrayRef<GridAxis> axes) = 0;
  /// Records that every result of `op` is, on each rank, its share of a
  /// sum over the ranks of `axes` (a gather from a table split along a
  /// computed index: each rank picks the rows it owns and zero elsewhere;
  /// a scatter-add into zeros of updates split over `axes`): completed by
  /// an all-reduce (sum).
  virtual void recordPartialSum(Operation *op, ArrayRef<GridAxis> axes) = 0;
  /// Forgets what recordPartialReduction or recordPartialSum recorded for
  /// `op`.
  virtual void forgetPartialReduction(Operation *op) = 0;
};

/// What a partition rule sees of summa-partition (implemented by its
/// FunctionPartitioner). Layouts and global types are those the values had
/// before any type changed.
class PartitionState {
public:
  virtual ~PartitionState();

  /// Gives every tensor result of `op` the type of its local tile, completes
  /// the partial results of a reduction over split dimensions, and drops the
  /// op's layouts.
  virtual LogicalResult localizeResults(Operation *op) = 0;
  /// The offsets of a slice of the global `tensor`, on its local tile: a
  /// split dimension is sliced in whole groups (summa-assign-layouts made
  /// sure of it).
  virtual SmallVector<int64_t> localOffsets(ArrayRef<int64_t> offsets,
                                            Value tensor) = 0;
  /// The partitioner's rewrite of a linalg structured op: indices made
  /// global, gathers masked, padded reductions masked, SUMMA products.
  virtual LogicalResult partitionStructured(Operation *op) = 0;
  /// summa.scatter at indices into a split tensor.
  virtual LogicalResult partitionScatterOp(Operation *op) = 0;
  /// A non-splat arith.constant laid out with splits.
  virtual LogicalResult partitionConstantOp(Operation *op) = 0;
  /// summa.relayout: all-gathers, reduce-scatters and slices.
  virtual LogicalResult lowerRelayoutOp(Operation *op) = 0;
};

/// What a derivative rule sees of summa-differentiate (implemented by its
/// Differentiator).
class DerivativeState {
public:
  virtual ~DerivativeState();

  /// Where the rule builds (before the function's return, in reverse
  /// program order).
  virtual OpBuilder &getBuilder() = 0;
  /// The adjoint of `v` (a result of the op being differentiated), or null.
  virtual Value getAdjoint(Value v) const = 0;
  /// Whether `v` depends on a parameter (its adjoint is needed).
  virtual bool isActive(Value v) const = 0;
  /// Adds `d` to the adjoint of `v`.
  virtual void accumulate(Location loc, Value v, Value d) = 0;
  /// A zero-filled tensor of `type`.
  virtual Value zeros(Location loc, Type type) = 0;
};

/// What an op's rule sees of the planner's split model: the split of each
/// value, over P ranks.
class SplitModelState {
public:
  /// The split of a value every rank holds a partial sum of.
  static constexpr int kPartial = -2;

  virtual ~SplitModelState();

  /// The dimension `v` is split along; -1 if replicated, kPartial if every
  /// rank holds a partial sum of it.
  virtual int getSplit(Value v) const = 0;
  bool isPartial(Value v) const { return getSplit(v) == kPartial; }
  /// How many groups the split dimension of `v` is cut into, each split P
  /// ways; 1 for a plain split.
  virtual int64_t getOuter(Value v) const = 0;
  /// `v` is a partial sum (an op that passes its operand's partial sum on).
  virtual void setPartial(Value v) = 0;
  /// `v` is split along `dim`, cut into `outer` groups first; fails (with
  /// the reason) where the split cannot be modelled.
  virtual LogicalResult setSplit(Value v, int dim, int64_t outer) = 0;
  /// All-reduces a partial sum (once) before a use that needs the sum.
  virtual void materialize(Value v) = 0;
  /// `op`'s operands made whole, its results replicated.
  virtual LogicalResult replicate(Operation *op) = 0;
  /// Whether a slice along a dimension of extent `whole` (offset, size,
  /// stride) keeps the split: the dimension whole, or cut into pieces that
  /// P divides.
  virtual bool keepsSplit(int64_t offset, int64_t size, int64_t stride,
                          int64_t whole) const = 0;
  /// Whether dimension `dim` of `type` may be split P ways.
  virtual bool divisible(Type type, int dim) const = 0;
};

/// What an op's rule sees of the dimension classes of a function
/// (DimClassOpInterface).
class DimClassState {
public:
  virtual ~DimClassState();

  /// Dimension `da` of `a` and dimension `db` of `b` index the same space.
  virtual void unite(Value a, int64_t da, Value b, int64_t db) = 0;
  /// A slice of dimension `d` of `v` takes chunks of `chunk` elements.
  virtual void addChunk(Value v, int64_t d, int64_t chunk) = 0;

  /// The size of dimension `d` of `v`'s ranked tensor type, or 0.
  static int64_t dimSize(Value v, int64_t d);
  /// The chunk a piece of `size` at `offset` cuts a dimension of `whole`
  /// into, or 0 when it takes it whole.
  static int64_t chunkOf(int64_t whole, int64_t offset, int64_t size);
};

/// What an op that only moves the elements of one of its operands does with
/// them (DataMoveOpInterface).
struct DataMove {
  /// The operand whose elements the result holds.
  OpOperand *source = nullptr;
  /// The element type changes (an extension, a truncation, an integer to
  /// a float).
  bool converts = false;
  /// The result holds a part of the source only.
  bool slices = false;
  /// Some source elements go to several places of the result.
  bool repeats = false;
  /// Dimensions are merged, split or dropped.
  bool reshapes = false;
  /// For each dimension of the result, the source's dimension it is, or -1
  /// where the result repeats the source along it; empty where the op
  /// reshapes.
  SmallVector<int64_t> sourceDims;
};

/// The data move `op` makes (DataMoveOpInterface), or none: an op without
/// the interface moves nothing.
std::optional<DataMove> getDataMove(Operation *op);

/// What one execution of an op costs on its local tiles
/// (LocalWorkOpInterface).
struct LocalWork {
  /// A loop nest: the bytes it reads and writes, and its iterations; the
  /// largest operand its innermost loop strides through (0: none).
  int64_t bytes = 0, iterations = 0, stridedBytes = 0;
  /// A contraction the lowering makes a batched GEMM: its flops and the
  /// bytes of its operands and result.
  int64_t gemmFlops = 0, gemmBytes = 0;
};

/// The local work of `op` (LocalWorkOpInterface); nothing for an op
/// without the interface.
LocalWork getLocalWork(Operation *op, function_ref<int64_t(Value)> bytesOf,
                       int64_t divisor = 1);

} // namespace summa
} // namespace mlir

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h.inc"

#endif // SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_H
