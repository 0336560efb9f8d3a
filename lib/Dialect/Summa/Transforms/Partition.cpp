//===- Partition.cpp - SPMD form on local tiles -----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-partition. Every tensor value keeps its ops but takes the
// type of the tile a rank holds; contractions become summa.matmul. Because
// the 2.5D layout of DESIGN.md §1 is the same for every activation, the
// elementwise ops between contractions need no communication, and their
// indexing maps stay valid on tiles. Reductions over split dimensions are
// completed by all-reduces, and linalg.index of split loops is offset to
// the global index.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Support/Elementwise.h"
#include "summa/Support/Functions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAPARTITION
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

class FunctionPartitioner {
public:
  FunctionPartitioner(func::FuncOp func, bool remarks)
      : func(func), remarks(remarks) {}
  LogicalResult run();

private:
  /// The tile type of a value of `type` laid out by `attr`.
  FailureOr<Type> localType(Type type, Attribute attr, Location loc);
  LogicalResult partitionOp(Operation *op);
  /// Offsets `linalg.index` of split loop dimensions by the rank's block.
  LogicalResult globalizeIndices(linalg::LinalgOp op);
  /// Completes the partial results of a reduction over split dimensions.
  void completeReduction(Operation *op);
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
  /// A non-splat constant laid out with splits: the whole constant, then
  /// this rank's slice of it.
  LogicalResult partitionConstant(arith::ConstantOp op, LayoutAttr layout);
  /// A linalg.matmul whose operands have the SUMMA layouts of its form
  /// becomes summa.matmul; any other one is local (no contracted dimension
  /// is split).
  LogicalResult partitionMatmul(linalg::MatmulOp mm, LayoutAttr layout);
  GridOp getGrid(LayoutAttr layout) {
    return lookupGrid(func, layout.getGrid());
  }
  /// The offsets of a slice of the global `tensor`, on its local tile: a
  /// split dimension is sliced in whole groups (summa-assign-layouts made
  /// sure of it), the group at global offset o * chunk at local o * (chunk
  /// / blocks).
  SmallVector<int64_t> localOffsets(ArrayRef<int64_t> offsets, Value tensor);

  func::FuncOp func;
  bool remarks;
  /// The layout of every tensor value, read before any type changes.
  DenseMap<Value, LayoutAttr> valueLayouts;
};

} // namespace

FailureOr<Type> FunctionPartitioner::localType(Type type, Attribute attr,
                                               Location loc) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  auto layout = dyn_cast_or_null<LayoutAttr>(attr);
  if (!layout)
    return emitError(loc) << "value of type " << type
                          << " has no layout; run summa-assign-layouts first";
  GridOp grid = getGrid(layout);
  if (!grid)
    return emitError(loc) << "layout refers to " << layout.getGrid()
                          << ", which is not a summa.grid";
  FailureOr<SmallVector<int64_t>> shape =
      getLocalShape(tensor.getShape(), layout, grid);
  if (failed(shape))
    return emitError(loc) << "the grid does not divide " << type
                          << " laid out as " << layout;
  return Type(tensor.clone(*shape));
}

LogicalResult FunctionPartitioner::globalizeIndices(linalg::LinalgOp op) {
  SmallVector<linalg::IndexOp> indices;
  op->walk([&](linalg::IndexOp index) { indices.push_back(index); });
  if (indices.empty())
    return success();
  // Split, groups and local size of every loop, from the operands' layouts.
  SmallVector<DimLayout> loops(op.getNumLoops());
  SmallVector<int64_t> localSizes(op.getNumLoops(), ShapedType::kDynamic);
  LayoutAttr any;
  for (OpOperand &operand : op->getOpOperands()) {
    LayoutAttr layout = valueLayouts.lookup(operand.get());
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!layout || !type)
      continue;
    any = layout;
    for (auto [i, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        loops[dim.getPosition()] = layout.getDim(i);
        localSizes[dim.getPosition()] = type.getDimSize(i);
      }
  }
  for (linalg::IndexOp index : indices) {
    int64_t loop = index.getDim();
    const DimLayout &split = loops[loop];
    if (!split.isSplit())
      continue;
    // Within each of the loop's groups, this rank holds the block at its
    // mixed-radix index over the split axes:
    //   global = (local / chunk) * (chunk * blocks) + block * chunk
    //            + local % chunk,  chunk = local size / groups.
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : index.getResult().getUses())
      uses.push_back(&use);
    OpBuilder b(op);
    Location loc = index.getLoc();
    int64_t chunk = localSizes[loop] / split.groups;
    Value offset =
        arith::MulIOp::create(b, loc, blockIndex(b, loc, any, split.axes),
                              arith::ConstantIndexOp::create(b, loc, chunk));
    OpBuilder inner(index->getContext());
    inner.setInsertionPointAfter(index);
    Value global;
    if (split.groups == 1) {
      global = arith::AddIOp::create(inner, loc, index, offset);
    } else {
      Value chunkSize = arith::ConstantIndexOp::create(inner, loc, chunk);
      Value span = arith::ConstantIndexOp::create(
          inner, loc, chunk * getSplitFactor(getGrid(any), split.axes));
      Value group = arith::DivUIOp::create(inner, loc, index, chunkSize);
      Value within = arith::RemUIOp::create(inner, loc, index, chunkSize);
      global = arith::AddIOp::create(
          inner, loc,
          arith::AddIOp::create(inner, loc,
                                arith::MulIOp::create(inner, loc, group, span),
                                offset),
          within);
    }
    for (OpOperand *use : uses)
      use->set(global);
    if (remarks) {
      auto diag = index.emitRemark() << "linalg.index " << loop
                                     << " offset by this rank's block over "
                                     << formatAxes(split.axes);
      if (split.groups != 1)
        diag << " in each of " << split.groups << " groups";
    }
  }
  return success();
}

/// Checks that every loop of `op` is laid out alike by all the operand
/// dimensions it indexes: the local op then computes on matching elements.
/// summa-assign-layouts guarantees it; this refuses, rather than miscompiles,
/// IR that was laid out by hand.
static LogicalResult
checkLoopLayouts(linalg::LinalgOp op,
                 const DenseMap<Value, LayoutAttr> &valueLayouts) {
  SmallVector<std::optional<DimLayout>> loops(op.getNumLoops());
  GridOp grid;
  for (OpOperand &operand : op->getOpOperands()) {
    LayoutAttr layout = valueLayouts.lookup(operand.get());
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!layout || !type)
      continue;
    for (auto [i, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || type.getDimSize(i) == 1)
        continue;
      // An axis of one rank splits nothing: [col] on a grid with q = 1 is
      // the whole dimension, as [] is.
      DimLayout here = layout.getDim(i);
      if (!grid)
        grid = lookupGrid(op, layout.getGrid());
      llvm::erase_if(here.axes, [&](GridAxis axis) {
        return grid && grid.getAxisSize(axis) == 1;
      });
      if (here.axes.empty())
        here.groups = 1;
      std::optional<DimLayout> &loop = loops[dim.getPosition()];
      if (!loop) {
        loop = here;
        continue;
      }
      if (*loop != here)
        return op->emitError()
               << "loop " << dim.getPosition()
               << " is laid out differently by two operands (operand "
               << operand.getOperandNumber() << " dimension " << i
               << " has layout " << layout
               << "); the local op would mix elements of different ranks";
    }
  }
  return success();
}

void FunctionPartitioner::completeReduction(Operation *op) {
  auto axes = op->getAttrOfType<DenseI32ArrayAttr>(kReduceAxesAttrName);
  auto kinds = op->getAttrOfType<ArrayAttr>(kReduceKindsAttrName);
  if (!axes || !kinds)
    return;
  op->removeAttr(kReduceAxesAttrName);
  op->removeAttr(kReduceKindsAttrName);
  auto layout =
      cast<LayoutAttr>(op->getAttrOfType<ArrayAttr>(kLayoutsAttrName)[0]);
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  for (auto [res, kind] : llvm::zip(op->getResults(), kinds)) {
    auto kindAttr = ReductionKindAttr::get(
        op->getContext(),
        *symbolizeReductionKind(cast<StringAttr>(kind).getValue()));
    auto reduced = AllReduceOp::create(b, op->getLoc(), res.getType(), res,
                                       layout.getGrid(), axes, kindAttr);
    res.replaceAllUsesExcept(reduced.getResult(), reduced);
    valueLayouts[reduced.getResult()] = valueLayouts.lookup(res);
    if (remarks) {
      SmallVector<GridAxis> list;
      for (int32_t a : axes.asArrayRef())
        list.push_back(static_cast<GridAxis>(a));
      op->emitRemark() << "reduces over a dimension split over "
                       << formatAxes(list) << ": summa.all_reduce ("
                       << stringifyReductionKind(kindAttr.getValue())
                       << ") of result " << res.getResultNumber()
                       << " over axes " << formatAxes(list);
    }
  }
}

Value FunctionPartitioner::blockIndex(OpBuilder &b, Location loc,
                                      LayoutAttr layout,
                                      ArrayRef<GridAxis> axes) {
  GridOp grid = getGrid(layout);
  Value block = arith::ConstantIndexOp::create(b, loc, 0);
  for (GridAxis axis : axes) {
    Value size = arith::ConstantIndexOp::create(b, loc, grid.getAxisSize(axis));
    Value coord = CoordOp::create(b, loc, b.getIndexType(), layout.getGrid(),
                                  GridAxisAttr::get(b.getContext(), axis));
    block = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, block, size), coord);
  }
  return block;
}

Value FunctionPartitioner::sliceToLayout(OpBuilder &b, Location loc,
                                         Value value, LayoutAttr target) {
  auto type = cast<RankedTensorType>(value.getType());
  GridOp grid = getGrid(target);
  // A factored dimension [n] is viewed as [groups, n / groups]; the slice
  // takes this rank's block of the inner dimension of every group.
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> expandedShape;
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> slicedShape;
  bool sliced = false, factored = false;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    DimLayout split = target.getDim(d);
    int64_t factor = getSplitFactor(grid, split.axes);
    ReassociationIndices group;
    if (split.groups != 1) {
      factored = true;
      group.push_back(expandedShape.size());
      expandedShape.push_back(split.groups);
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(split.groups));
      strides.push_back(b.getIndexAttr(1));
      slicedShape.push_back(split.groups);
    }
    int64_t whole = type.getDimSize(d) / split.groups;
    int64_t size = whole / factor;
    group.push_back(expandedShape.size());
    expandedShape.push_back(whole);
    reassociation.push_back(group);
    slicedShape.push_back(size);
    sizes.push_back(b.getIndexAttr(size));
    strides.push_back(b.getIndexAttr(1));
    if (factor == 1) {
      offsets.push_back(b.getIndexAttr(0));
      continue;
    }
    sliced = true;
    Value offset =
        arith::MulIOp::create(b, loc, blockIndex(b, loc, target, split.axes),
                              arith::ConstantIndexOp::create(b, loc, size));
    offsets.push_back(offset);
  }
  if (!sliced)
    return value;
  Value source = value;
  if (factored)
    source = tensor::ExpandShapeOp::create(b, loc, type.clone(expandedShape),
                                           value, reassociation);
  Value slice = tensor::ExtractSliceOp::create(b, loc, type.clone(slicedShape),
                                               source, offsets, sizes, strides);
  if (!factored)
    return slice;
  FailureOr<SmallVector<int64_t>> local =
      getLocalShape(type.getShape(), target, grid);
  return tensor::CollapseShapeOp::create(b, loc, type.clone(*local), slice,
                                         reassociation);
}

SmallVector<int64_t>
FunctionPartitioner::localOffsets(ArrayRef<int64_t> offsets, Value tensor) {
  LayoutAttr layout = valueLayouts.lookup(tensor);
  auto type = cast<RankedTensorType>(tensor.getType()); // already local
  SmallVector<int64_t> local(offsets);
  if (!layout)
    return local;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    DimLayout split = layout.getDim(d);
    if (!split.isSplit())
      continue;
    int64_t localChunk = type.getDimSize(d) / split.groups;
    int64_t globalChunk =
        localChunk * getSplitFactor(getGrid(layout), split.axes);
    local[d] = offsets[d] / globalChunk * localChunk;
  }
  return local;
}

/// Dimension `dim` of `value` holds `blocks` blocks, each of `groups`
/// chunks; returns it with the chunks ordered group by group.
static Value regroup(OpBuilder &b, Location loc, Value value, int64_t dim,
                     int64_t blocks, int64_t groups) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t chunk = type.getDimSize(dim) / (blocks * groups);
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d != dim) {
      reassociation.push_back({static_cast<int64_t>(shape.size())});
      shape.push_back(type.getDimSize(d));
      continue;
    }
    int64_t first = shape.size();
    reassociation.push_back({first, first + 1, first + 2});
    shape.append({blocks, groups, chunk});
  }
  Value expanded = tensor::ExpandShapeOp::create(b, loc, type.clone(shape),
                                                 value, reassociation);
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, shape.size()));
  std::swap(permutation[dim], permutation[dim + 1]);
  SmallVector<int64_t> permuted = shape;
  std::swap(permuted[dim], permuted[dim + 1]);
  Value init = tensor::EmptyOp::create(b, loc, permuted, type.getElementType());
  Value transposed =
      linalg::TransposeOp::create(b, loc, expanded, init, permutation)
          ->getResult(0);
  return tensor::CollapseShapeOp::create(b, loc, type, transposed,
                                         reassociation);
}

static int64_t byteSize(RankedTensorType type) {
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// `value` with every element converted to `to` by the integer cast `Cast`
/// (a local elementwise op on the tile).
template <typename Cast>
static Value castElements(OpBuilder &b, Location loc, Value value,
                          IntegerType to) {
  return mapElements(b, loc, value, to,
                     [&](OpBuilder &nb, Location nl, Value element) -> Value {
                       return Cast::create(nb, nl, to, element);
                     });
}

LogicalResult FunctionPartitioner::lowerRelayout(RelayoutOp op) {
  LayoutAttr from = valueLayouts.lookup(op.getInput());
  LayoutAttr to = op.getLayout();
  if (!from)
    return op.emitError() << "the input of summa.relayout has no layout; run "
                             "summa-assign-layouts first";
  GridOp grid = getGrid(to);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value cur = op.getInput();
  std::string log;
  llvm::raw_string_ostream os(log);
  int64_t received = 0;
  // Integers narrower than the runtime's (i1 masks, i8): gathered as i32,
  // then narrowed back (i1 zero-extended, the others sign-extended).
  auto elementType = dyn_cast<IntegerType>(
      cast<RankedTensorType>(cur.getType()).getElementType());
  bool widen =
      elementType && elementType.getWidth() < 32 &&
      llvm::any_of(
          llvm::seq<unsigned>(0, from.getRank()),
          [&](unsigned d) {
            return from.getDim(d).isSplit() && from.getDim(d) != to.getDim(d);
          });
  if (widen) {
    IntegerType i32 = b.getI32Type();
    cur = elementType.getWidth() == 1
              ? castElements<arith::ExtUIOp>(b, loc, cur, i32)
              : castElements<arith::ExtSIOp>(b, loc, cur, i32);
  }
  // Gather every dimension whose split changes: the rank then holds those
  // dimensions whole.
  SmallVector<DimLayout> gathered;
  for (unsigned d = 0; d < from.getRank(); ++d) {
    DimLayout src = from.getDim(d), dst = to.getDim(d);
    gathered.push_back(src);
    if (src == dst || !src.isSplit())
      continue;
    auto type = cast<RankedTensorType>(cur.getType());
    SmallVector<int64_t> shape(type.getShape());
    int64_t blocks = getSplitFactor(grid, src.axes);
    shape[d] *= blocks;
    SmallVector<int32_t> axes;
    for (GridAxis a : src.axes)
      axes.push_back(static_cast<int32_t>(a));
    auto bigger = type.clone(shape);
    cur = AllGatherOp::create(b, loc, bigger, cur, Value(), to.getGrid(),
                              b.getDenseI32ArrayAttr(axes),
                              b.getI64IntegerAttr(d))
              .getResult();
    received += byteSize(bigger) - byteSize(type);
    os << "; summa.all_gather over " << formatAxes(src.axes) << " of dimension "
       << d;
    if (src.groups != 1) {
      // The gathered blocks are [blocks, groups, chunk]; the tensor's order
      // is [groups, blocks, chunk].
      cur = regroup(b, loc, cur, d, blocks, src.groups);
      os << " (then reordered group by group)";
    }
    gathered.back() = DimLayout();
  }
  if (widen)
    cur = castElements<arith::TruncIOp>(b, loc, cur, elementType);
  // Then take this rank's blocks of the target's splits.
  SmallVector<DimLayout> local;
  bool slices = false;
  for (unsigned d = 0; d < to.getRank(); ++d) {
    DimLayout dst = to.getDim(d);
    if (gathered[d] == dst) {
      local.push_back(DimLayout());
      continue;
    }
    local.push_back(dst);
    slices = true;
  }
  if (slices) {
    cur = sliceToLayout(b, loc, cur,
                        LayoutAttr::get(op.getContext(), to.getGrid(),
                                        ArrayRef<DimLayout>(local)));
    os << "; a local slice over";
    for (unsigned d = 0; d < to.getRank(); ++d)
      if (local[d].isSplit()) {
        os << " " << formatAxes(local[d].axes) << " of dimension " << d;
        if (local[d].groups != 1)
          os << " in each of " << local[d].groups << " groups";
      }
  }
  if (remarks)
    op.emitRemark() << "redistribution of " << op.getInput().getType()
                    << " from " << from << " to " << to << ": " << received
                    << " bytes received per rank" << log;
  valueLayouts[cur] = to;
  op.getResult().replaceAllUsesWith(cur);
  op.erase();
  return success();
}

LogicalResult FunctionPartitioner::partitionConstant(arith::ConstantOp op,
                                                     LayoutAttr layout) {
  auto type = cast<RankedTensorType>(op.getType());
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (dense && dense.isSplat()) {
    FailureOr<Type> local = localType(type, layout, op.getLoc());
    if (failed(local))
      return failure();
    op.getResult().setType(cast<RankedTensorType>(*local));
    op.setValueAttr(DenseElementsAttr::get(cast<ShapedType>(*local),
                                           dense.getSplatValue<Attribute>()));
    return success();
  }
  // The whole table on every rank, sliced to this rank's block.
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : op.getResult().getUses())
    uses.push_back(&use);
  Value local = sliceToLayout(b, op.getLoc(), op.getResult(), layout);
  if (local != op.getResult()) {
    // The uses before the slice: the slice's own ops read the constant.
    for (OpOperand *use : uses)
      use->set(local);
    valueLayouts[local] = layout;
    if (remarks)
      op.emitRemark() << "constant " << type << " laid out as " << layout
                      << ": each rank slices its block of the whole table";
  }
  return success();
}

LogicalResult FunctionPartitioner::partitionOp(Operation *op) {
  if (op->getNumResults() == 0)
    return success();
  auto layouts = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
  bool hasTensorResult =
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
  if (!hasTensorResult)
    return success();
  if (auto relayout = dyn_cast<RelayoutOp>(op))
    return lowerRelayout(relayout);
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto layout = layouts ? dyn_cast<LayoutAttr>(layouts[0]) : LayoutAttr();
    if (!layout)
      return op->emitError() << "value of type " << op->getResult(0).getType()
                             << " has no layout; run summa-assign-layouts "
                                "first";
    op->removeAttr(kLayoutsAttrName);
    return partitionConstant(constant, layout);
  }
  if (!isa<linalg::LinalgOp, linalg::SoftmaxOp, tensor::EmptyOp,
           tensor::ExpandShapeOp, tensor::CollapseShapeOp,
           tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::ConcatOp,
           tensor::PadOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' is not supported by summa-partition";
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    if ((!isa<linalg::MatmulOp>(op) &&
         failed(checkLoopLayouts(linalgOp, valueLayouts))) ||
        failed(globalizeIndices(linalgOp)))
      return failure();
  for (OpResult res : op->getResults()) {
    FailureOr<Type> local = localType(
        res.getType(), layouts ? layouts[res.getResultNumber()] : Attribute(),
        op->getLoc());
    if (failed(local))
      return failure();
    res.setType(*local);
  }
  completeReduction(op);

  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    expand.setStaticOutputShape(expand.getResultType().getShape());
  } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // Split dimensions are taken whole, or whole groups of a factored one
    // (summa-assign-layouts made sure of it): their size becomes the
    // tile's; dropped dimensions stay 1.
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<int64_t> sizes;
    ArrayRef<int64_t> resultShape = slice.getResultType().getShape();
    for (int64_t d = 0, r = 0; d < slice.getSourceType().getRank(); ++d)
      sizes.push_back(dropped.test(d) ? 1 : resultShape[r++]);
    slice.setStaticSizes(sizes);
    slice.setStaticOffsets(
        localOffsets(slice.getStaticOffsets(), slice.getSource()));
  } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    insert.setStaticSizes(insert.getSourceType().getShape());
    insert.setStaticOffsets(
        localOffsets(insert.getStaticOffsets(), insert.getDest()));
  } else if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
    op->removeAttr(kLayoutsAttrName);
    return partitionMatmul(mm, cast<LayoutAttr>(layouts[0]));
  }
  op->removeAttr(kLayoutsAttrName);
  return success();
}

/// The remark's description of a summa.matmul form: its name after
/// "2.5D SUMMA matmul" and the communication of each of its steps.
static std::pair<StringRef, StringRef> describeForm(MatmulForm form) {
  static constexpr StringLiteral kSteps[] = {
      // ab
      "a summa.broadcast of the lhs panel along the rows (axes [col]) and of "
      "the rhs panel along the columns (axes [row])",
      // abt
      "a summa.broadcast of the rhs panel along the columns (axes [row]) and "
      "a summa.reduce of the partial product along the rows (axes [col])",
      // atb
      "a summa.broadcast of the lhs panel along the rows (axes [col]) and a "
      "summa.reduce of the partial product along the columns (axes [row]); "
      "then a summa.all_reduce over [depth]"};
  static constexpr StringLiteral kTitles[] = {"", " A·Bᵀ", " Aᵀ·B"};
  static_assert(static_cast<int>(MatmulForm::ab) == 0 &&
                static_cast<int>(MatmulForm::abt) == 1 &&
                static_cast<int>(MatmulForm::atb) == 2);
  auto i = static_cast<size_t>(form);
  return {kTitles[i], kSteps[i]};
}

LogicalResult FunctionPartitioner::partitionMatmul(linalg::MatmulOp mm,
                                                   LayoutAttr layout) {
  std::optional<MatmulForm> form = getMatmulForm(mm.getIndexingMapsArray());
  bool summa = false;
  if (form) {
    MatmulLayouts want =
        getMatmulLayouts(mm.getContext(), layout.getGrid(), *form,
                         layout.getDimGroups(0), layout.getDimGroups(1));
    summa = valueLayouts.lookup(mm.getDpsInputOperand(0)->get()) == want.lhs &&
            valueLayouts.lookup(mm.getDpsInputOperand(1)->get()) == want.rhs &&
            layout == want.result;
  }
  if (!summa) {
    // summa-assign-layouts left no contracted dimension split: a product of
    // local tiles.
    if (failed(checkLoopLayouts(mm, valueLayouts)))
      return failure();
    valueLayouts[mm->getResult(0)] = layout;
    if (remarks)
      mm.emitRemark() << "local matmul: no contracted dimension is split";
    return success();
  }
  OpBuilder b(mm);
  auto summaMm = MatmulOp::create(
      b, mm.getLoc(), mm->getResult(0).getType(),
      mm.getDpsInputOperand(0)->get(), mm.getDpsInputOperand(1)->get(),
      mm.getDpsInitOperand(0)->get(), layout.getGrid(),
      MatmulFormAttr::get(b.getContext(), *form));
  if (remarks) {
    auto [title, steps] = describeForm(summaMm.getForm());
    mm.emitRemark() << "2.5D SUMMA matmul" << title << ": "
                    << getGrid(layout).getQ() << " steps, each " << steps;
  }
  valueLayouts[summaMm.getResult()] = layout;
  mm->getResult(0).replaceAllUsesWith(summaMm.getResult());
  mm->erase();
  return success();
}

LogicalResult FunctionPartitioner::run() {
  Block &body = func.getBody().front();
  for (BlockArgument arg : func.getArguments())
    if (auto layout = func.getArgAttrOfType<LayoutAttr>(arg.getArgNumber(),
                                                        kLayoutAttrName))
      valueLayouts[arg] = layout;
  func.walk([&](Operation *op) {
    if (auto attrs = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName))
      for (auto [res, attr] : llvm::zip(op->getResults(), attrs))
        if (auto layout = dyn_cast<LayoutAttr>(attr))
          valueLayouts[res] = layout;
  });

  SmallVector<Type> argTypes, resultTypes;
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<Type> local = localType(
        arg.getType(), func.getArgAttr(arg.getArgNumber(), kLayoutAttrName),
        arg.getLoc());
    if (failed(local))
      return failure();
    arg.setType(*local);
    argTypes.push_back(*local);
  }
  for (Operation &op : llvm::make_early_inc_range(body))
    if (failed(partitionOp(&op)))
      return failure();
  for (Value v : body.getTerminator()->getOperands())
    resultTypes.push_back(v.getType());
  func.setFunctionType(
      FunctionType::get(func.getContext(), argTypes, resultTypes));
  return success();
}

namespace {
struct SummaPartitionPass
    : summa::impl::SummaPartitionBase<SummaPartitionPass> {
  using Base::Base;
  void runOnOperation() override {
    for (func::FuncOp func : definedFunctions(getOperation())) {
      FunctionPartitioner partitioner(func, emitRemarks);
      if (failed(partitioner.run()))
        return signalPassFailure();
    }
  }
};
} // namespace
