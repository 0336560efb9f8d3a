//===- PartitionGather.cpp - gathers and scatters on local tiles -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-partition's reads and writes at computed indices. A gather from a
// table split along a computed index (a vocabulary-parallel embedding, the
// logit a cross-entropy picks from logits split over the vocabulary) reads
// the table at local indices where this rank owns the row and yields zero
// elsewhere: its result is a partial sum, all-reduced after the op. A
// scatter into such a table subtracts this rank's offset from the indices:
// the updates of rows it does not own fall outside its tile and are
// skipped.
//
//===----------------------------------------------------------------------===//

#include "Partitioner.h"

using namespace mlir;
using namespace mlir::summa;

/// The axes of `split` whose grid axis has more than one rank.
static SmallVector<GridAxis> effectiveAxes(GridOp grid,
                                           const DimLayout &split) {
  SmallVector<GridAxis> axes;
  for (GridAxis a : split.axes)
    if (grid.getAxisSize(a) != 1)
      axes.push_back(a);
  return axes;
}

LogicalResult FunctionPartitioner::partitionGather(Gather g) {
  Value table = g.getTable();
  LayoutAttr layout = valueLayouts.lookup(table);
  if (!layout)
    return success();
  GridOp grid = getGrid(layout);
  auto local = cast<RankedTensorType>(table.getType());
  OpBuilder outside(g.op);
  OpBuilder inside(g.read);
  Location loc = g.read.getLoc();
  SmallVector<Value> indices(g.read.getIndices());
  Value owned;
  SmallVector<GridAxis> partialAxes;
  for (auto [d, loop] : llvm::enumerate(g.loops)) {
    DimLayout split = layout.getDim(d);
    SmallVector<GridAxis> axes = effectiveAxes(grid, split);
    if (axes.empty())
      continue;
    if (loop) {
      // The loop is split as the table dimension is: the local index.
      indices[d] = linalg::IndexOp::create(inside, loc, *loop);
      continue;
    }
    if (split.groups != 1)
      return g.op.emitError()
             << "summa-partition: a table dimension indexed by a computed "
                "value is factored into groups ("
             << layout << "); it must be split in plain blocks";
    int64_t size = local.getDimSize(d);
    Value offset = arith::MulIOp::create(
        outside, loc, blockIndex(outside, loc, layout, axes),
        arith::ConstantIndexOp::create(outside, loc, size));
    Value at = arith::SubIOp::create(inside, loc, indices[d], offset);
    Value mine = arith::CmpIOp::create(
        inside, loc, arith::CmpIPredicate::ult, at,
        arith::ConstantIndexOp::create(inside, loc, size));
    indices[d] = arith::SelectOp::create(
        inside, loc, mine, at, arith::ConstantIndexOp::create(inside, loc, 0));
    owned = owned ? arith::AndIOp::create(inside, loc, owned, mine).getResult()
                  : mine;
    llvm::append_range(partialAxes, axes);
  }
  g.read.getIndicesMutable().assign(indices);
  if (!owned)
    return success();
  inside.setInsertionPointAfter(g.read);
  Type element = g.read.getType();
  Value zero = arith::ConstantOp::create(inside, loc, element,
                                         inside.getZeroAttr(element));
  Value picked =
      arith::SelectOp::create(inside, loc, owned, g.read.getResult(), zero);
  g.read.getResult().replaceUsesWithIf(picked, [&](OpOperand &use) {
    return use.getOwner() != picked.getDefiningOp();
  });
  if (remarks)
    g.op.emitRemark() << "gather from a table laid out as " << layout
                      << ": each rank reads the rows it owns over "
                      << formatAxes(partialAxes) << ", zero elsewhere";
  return success();
}

LogicalResult FunctionPartitioner::partitionScatter(ScatterOp op) {
  LayoutAttr layout = valueLayouts.lookup(op.getOriginal());
  if (!layout)
    return success();
  GridOp grid = getGrid(layout);
  auto original = cast<RankedTensorType>(op.getOriginal().getType());
  OpBuilder b(op);
  Location loc = op.getLoc();
  // Per index column, this rank's offset along the dimension it indexes.
  SmallVector<std::pair<int64_t, Value>> offsets;
  for (auto [k, d] : llvm::enumerate(op.getDimensionMap())) {
    DimLayout split = layout.getDim(d);
    SmallVector<GridAxis> axes = effectiveAxes(grid, split);
    if (axes.empty())
      continue;
    if (split.groups != 1)
      return op.emitError() << "summa-partition: a scatter into a dimension "
                               "factored into groups ("
                            << layout << ") is not supported";
    offsets.push_back(
        {k, arith::MulIOp::create(
                b, loc, blockIndex(b, loc, layout, axes),
                arith::ConstantIndexOp::create(b, loc, original.getDimSize(d)))
                .getResult()});
  }
  if (offsets.empty())
    return success();
  auto indexType = cast<RankedTensorType>(op.getIndices().getType());
  Type element = indexType.getElementType();
  int64_t rank = indexType.getRank();
  Value empty = tensor::EmptyOp::create(b, loc, indexType.getShape(), element);
  AffineMap id = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  Value shifted =
      linalg::GenericOp::create(
          b, loc, TypeRange{indexType}, ValueRange{op.getIndices()},
          ValueRange{empty}, ArrayRef<AffineMap>{id, id}, parallel,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value column = linalg::IndexOp::create(nb, nl, rank - 1);
            Value offset = arith::ConstantIndexOp::create(nb, nl, 0);
            for (auto [k, value] : offsets) {
              Value here = arith::CmpIOp::create(
                  nb, nl, arith::CmpIPredicate::eq, column,
                  arith::ConstantIndexOp::create(nb, nl, k));
              offset = arith::SelectOp::create(nb, nl, here, value, offset);
            }
            if (!element.isIndex())
              offset = arith::IndexCastOp::create(nb, nl, element, offset);
            linalg::YieldOp::create(
                nb, nl,
                arith::SubIOp::create(nb, nl, args[0], offset).getResult());
          })
          .getResult(0);
  op.getIndicesMutable().assign(shifted);
  if (remarks)
    op.emitRemark() << "scatter into a tensor laid out as " << layout
                    << ": indices offset by this rank's block, the updates "
                       "of rows other ranks own skipped";
  return success();
}
