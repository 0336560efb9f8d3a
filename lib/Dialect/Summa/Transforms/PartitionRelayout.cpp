//===- PartitionRelayout.cpp - redistributions on local tiles ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-partition's redistributions: summa.relayout becomes all-gathers of
// the dimensions whose split changes and a local slice of this rank's
// blocks; a non-splat constant is sliced to this rank's block.
//
//===----------------------------------------------------------------------===//

#include "Partitioner.h"

#include "summa/Support/Elementwise.h"

using namespace mlir;
using namespace mlir::summa;

Value FunctionPartitioner::sliceToLayout(OpBuilder &b, Location loc,
                                         Value value, LayoutAttr target) {
  auto type = cast<RankedTensorType>(value.getType());
  GridOp grid = getGrid(target);
  // A factored dimension [n] is viewed as [groups, n / groups]; the slice
  // takes this rank's block of the inner dimension of every group.
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> expandedShape;
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> slicedShape, padded;
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
    // Uneven blocks (groups == 1): the last ones padded to ceil(n / p).
    int64_t size = llvm::divideCeil(whole, factor);
    padded.push_back(size * factor * split.groups);
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
  if (padded != type.getShape()) {
    // Zeros after the tensor's end, for the blocks that run past it.
    Type element = type.getElementType();
    Value zero =
        arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
    Value zeros =
        linalg::FillOp::create(
            b, loc, zero,
            ValueRange{tensor::EmptyOp::create(b, loc, padded, element)})
            .getResult(0);
    SmallVector<OpFoldResult> at(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> extent, unit(type.getRank(), b.getIndexAttr(1));
    for (int64_t size : type.getShape())
      extent.push_back(b.getIndexAttr(size));
    source =
        tensor::InsertSliceOp::create(b, loc, value, zeros, at, extent, unit);
  }
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
    // Whole groups, or (a strided slice whose elements every block holds)
    // the same position in every block.
    local[d] = offsets[d] / globalChunk * localChunk + offsets[d] % globalChunk;
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

/// Whether `axes` are in the order of world ranks (depth, row, col): the
/// order in which a collective over them numbers its members.
static bool inWorldOrder(ArrayRef<GridAxis> axes) {
  auto rank = [](GridAxis x) { return (static_cast<int>(x) + 1) % 3; };
  for (size_t i = 1; i < axes.size(); ++i)
    if (rank(axes[i - 1]) >= rank(axes[i]))
      return false;
  return true;
}

/// The axes `dst` adds after `src` on a dimension of global size `size`,
/// if `dst`'s blocks lie inside `src`'s (its axes begin with `src`'s, and
/// each block of `src` holds exactly as many of `dst`'s as the added axes
/// have ranks): this rank's block of `dst` is then a slice of its block of
/// `src`, no communication. std::nullopt otherwise.
static std::optional<DimLayout> nestedSplit(GridOp grid, int64_t size,
                                            const DimLayout &src,
                                            const DimLayout &dst) {
  if (size <= 0 || src.groups != 1 || dst.groups != 1 ||
      dst.axes.size() <= src.axes.size() ||
      !llvm::equal(src.axes,
                   ArrayRef<GridAxis>(dst.axes).take_front(src.axes.size())))
    return std::nullopt;
  SmallVector<GridAxis> extra(
      ArrayRef<GridAxis>(dst.axes).drop_front(src.axes.size()));
  int64_t outer = getSplitFactor(grid, src.axes);
  int64_t inner = getSplitFactor(grid, extra);
  if (llvm::divideCeil(size, outer) !=
      inner * llvm::divideCeil(size, outer * inner))
    return std::nullopt;
  return DimLayout(extra);
}

LogicalResult FunctionPartitioner::scatterReduction(RelayoutOp op,
                                                    LayoutAttr from,
                                                    LayoutAttr to) {
  Value input = op.getInput();
  if (!input.hasOneUse())
    return failure();
  GridOp grid = getGrid(to);
  // A sum over grid axes (an all-reduce, or the depth sum of an A^T.B
  // product) that only this redistribution reads.
  auto reduced = input.getDefiningOp<AllReduceOp>();
  if (reduced && reduced.getKind() != ReductionKind::sum)
    reduced = {};
  auto product = input.getDefiningOp<MatmulOp>();
  if (product && (product.getForm() != MatmulForm::atb ||
                  product.getDepthScatter() || grid.getD() == 1))
    product = {};
  if (!reduced && !product)
    return failure();
  SmallVector<GridAxis> axes =
      reduced ? SmallVector<GridAxis>(reduced.getGridAxes())
              : SmallVector<GridAxis>{GridAxis::depth};
  RankedTensorType global = globalTypes.lookup(op.getResult());
  // One dimension whose target split adds some of the summed axes (its
  // blocks nested in the current ones); every other one unchanged.
  std::optional<unsigned> dim;
  SmallVector<GridAxis> scattered;
  for (unsigned d = 0; d < to.getRank(); ++d) {
    DimLayout src = from.getDim(d), dst = to.getDim(d);
    if (src == dst)
      continue;
    std::optional<DimLayout> inner =
        nestedSplit(grid, global ? global.getDimSize(d) : 0,
                    src.isSplit() ? src : DimLayout(), dst);
    if (dim || !inner || !inWorldOrder(inner->axes) ||
        !llvm::all_of(inner->axes,
                      [&](GridAxis a) { return llvm::is_contained(axes, a); }))
      return failure();
    dim = d;
    scattered = inner->axes;
  }
  if (!dim || (product && scattered != ArrayRef<GridAxis>{GridAxis::depth}))
    return failure();
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[*dim] /= getSplitFactor(grid, scattered);
  auto sliced = type.clone(shape);
  OpBuilder b(op);
  MLIRContext *ctx = op.getContext();
  auto sum = ReductionKindAttr::get(ctx, ReductionKind::sum);
  Value result;
  if (product) {
    // The product's depth sum becomes its reduce-scatter.
    b.setInsertionPoint(product);
    auto scatteredProduct = MatmulOp::create(
        b, product.getLoc(), sliced, product.getLhs(), product.getRhs(),
        product.getAcc(), product.getGridAttr(), product.getFormAttr(),
        b.getI64IntegerAttr(*dim));
    result = scatteredProduct.getResult();
  } else {
    result = ReduceScatterOp::create(b, op.getLoc(), sliced, reduced.getInput(),
                                     Value(), reduced.getGridAttr(),
                                     getAxesAttr(ctx, scattered),
                                     b.getI64IntegerAttr(*dim), sum)
                 .getResult();
    // The axes the slice does not split are summed on the smaller block.
    SmallVector<GridAxis> rest;
    for (GridAxis a : axes)
      if (!llvm::is_contained(scattered, a))
        rest.push_back(a);
    if (!rest.empty())
      result = AllReduceOp::create(b, op.getLoc(), sliced, result,
                                   reduced.getGridAttr(),
                                   getAxesAttr(ctx, rest), sum)
                   .getResult();
  }
  if (remarks)
    op.emitRemark() << "redistribution of " << input.getType() << " from "
                    << from << " to " << to << ": its sum over "
                    << formatAxes(axes)
                    << " becomes a summa.reduce_scatter over "
                    << formatAxes(scattered) << " of dimension " << *dim;
  valueLayouts[result] = to;
  globalTypes[result] = globalTypes.lookup(op.getResult());
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  if (reduced)
    reduced.erase();
  else
    product.erase();
  return success();
}

RelayoutOp FunctionPartitioner::createRelayout(OpBuilder &b, Location loc,
                                               Value v, LayoutAttr target,
                                               RankedTensorType global) {
  auto op = RelayoutOp::create(b, loc, global, v, target);
  globalTypes[op.getResult()] = global;
  return op;
}

LogicalResult FunctionPartitioner::sliceElementwise(RelayoutOp op,
                                                    LayoutAttr from,
                                                    LayoutAttr to) {
  auto generic = op.getInput().getDefiningOp<linalg::GenericOp>();
  if (!generic || !op.getInput().hasOneUse() || generic->getNumResults() != 1 ||
      generic.hasIndexSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return failure();
  auto type = cast<RankedTensorType>(op.getInput().getType());
  for (OpOperand &operand : generic->getOpOperands())
    if (operand.get().getType() != type ||
        !generic.getMatchingIndexingMap(&operand).isIdentity() ||
        (generic.isDpsInput(&operand) &&
         valueLayouts.lookup(operand.get()) != from))
      return failure();
  GridOp grid = getGrid(to);
  // Worth it where a sum can become a reduce-scatter: an all-reduce, or the
  // depth sum of an A^T.B product, that only the generic reads.
  auto scatterable = [&](Value v) {
    if (!v.hasOneUse())
      return false;
    if (auto sum = v.getDefiningOp<AllReduceOp>())
      return sum.getKind() == ReductionKind::sum;
    auto product = v.getDefiningOp<MatmulOp>();
    return product && product.getForm() == MatmulForm::atb &&
           !product.getDepthScatter() && grid.getD() > 1;
  };
  if (!llvm::any_of(generic.getDpsInputs(), scatterable))
    return failure();
  RankedTensorType global = globalTypes.lookup(op.getResult());
  FailureOr<Type> local = localType(global, to, op.getLoc());
  if (failed(local))
    return failure();
  OpBuilder b(generic);
  Location loc = generic.getLoc();
  // Each input (and an init the body reads) redistributed as the result.
  SmallVector<RelayoutOp> parts;
  auto slice = [&](Value v) {
    parts.push_back(createRelayout(b, loc, v, to, global));
    return parts.back().getResult();
  };
  SmallVector<Value> inputs, inits;
  for (Value in : generic.getDpsInputs())
    inputs.push_back(slice(in));
  for (OpOperand &init : generic.getDpsInitsMutable())
    inits.push_back(generic.payloadUsesValueFromOperand(&init)
                        ? slice(init.get())
                        : tensor::EmptyOp::create(
                              b, loc, cast<RankedTensorType>(*local).getShape(),
                              type.getElementType())
                              .getResult());
  auto sliced = linalg::GenericOp::create(b, loc, TypeRange{*local}, inputs,
                                          inits, generic.getIndexingMapsArray(),
                                          generic.getIteratorTypesArray());
  sliced.getRegion().takeBody(generic.getRegion());
  valueLayouts[sliced.getResult(0)] = to;
  globalTypes[sliced.getResult(0)] = global;
  if (remarks)
    op.emitRemark() << "redistribution of " << type << " from " << from
                    << " to " << to
                    << ": the elementwise operation computing it reads the "
                       "redistributed inputs instead";
  op.getResult().replaceAllUsesWith(sliced.getResult(0));
  for (Value gone : {op.getResult(), op.getInput()}) {
    valueLayouts.erase(gone);
    globalTypes.erase(gone);
  }
  op.erase();
  generic.erase();
  for (RelayoutOp part : parts)
    if (failed(lowerRelayout(part)))
      return failure();
  return success();
}

/// The element type of `v` where it is an integer narrower than the
/// runtime's collectives take (i1 masks, i8) and the relayout from `from`
/// to `to` gathers a dimension: gathered as i32, then narrowed back (i1
/// zero-extended, the others sign-extended). Null otherwise.
static IntegerType narrowGatheredInteger(Value v, LayoutAttr from,
                                         LayoutAttr to) {
  auto elementType = dyn_cast<IntegerType>(
      cast<RankedTensorType>(v.getType()).getElementType());
  if (!elementType || elementType.getWidth() >= 32)
    return {};
  bool gathers =
      llvm::any_of(llvm::seq<unsigned>(0, from.getRank()), [&](unsigned d) {
        return from.getDim(d).isSplit() && from.getDim(d) != to.getDim(d);
      });
  return gathers ? elementType : IntegerType();
}

Value FunctionPartitioner::sliceToTarget(OpBuilder &b, Location loc, Value v,
                                         LayoutAttr to,
                                         ArrayRef<DimLayout> gathered,
                                         ArrayRef<DimLayout> within,
                                         raw_ostream &os) {
  SmallVector<DimLayout> local;
  bool slices = false;
  for (unsigned d = 0; d < to.getRank(); ++d) {
    DimLayout dst = to.getDim(d);
    if (gathered[d] == dst) {
      local.push_back(DimLayout());
      continue;
    }
    local.push_back(within[d].isSplit() ? within[d] : dst);
    slices = true;
  }
  if (!slices)
    return v;
  os << "; a local slice over";
  for (unsigned d = 0; d < to.getRank(); ++d)
    if (local[d].isSplit()) {
      os << " " << formatAxes(local[d].axes) << " of dimension " << d;
      if (local[d].groups != 1)
        os << " in each of " << local[d].groups << " groups";
    }
  return sliceToLayout(b, loc, v,
                       LayoutAttr::get(b.getContext(), to.getGrid(),
                                       ArrayRef<DimLayout>(local)));
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
  IntegerType elementType = narrowGatheredInteger(cur, from, to);
  bool widen = static_cast<bool>(elementType);
  if (widen) {
    IntegerType i32 = b.getI32Type();
    cur = elementType.getWidth() == 1
              ? castElements<arith::ExtUIOp>(b, loc, cur, i32)
              : castElements<arith::ExtSIOp>(b, loc, cur, i32);
  }
  if (succeeded(scatterReduction(op, from, to)) ||
      succeeded(sliceElementwise(op, from, to)))
    return success();
  // Gather every dimension whose split changes: the rank then holds those
  // dimensions whole.
  SmallVector<DimLayout> gathered, within(from.getRank());
  RankedTensorType globalType = globalTypes.lookup(op.getResult());
  for (unsigned d = 0; d < from.getRank(); ++d) {
    DimLayout src = from.getDim(d), dst = to.getDim(d);
    gathered.push_back(src);
    if (src == dst || !src.isSplit())
      continue;
    if (std::optional<DimLayout> inner = nestedSplit(
            grid, globalType ? globalType.getDimSize(d) : 0, src, dst)) {
      // The target's blocks lie inside this rank's: a local slice.
      within[d] = *inner;
      continue;
    }
    // The target's blocks hold whole blocks of this rank's (its axes a
    // prefix of the split's): gather over the other axes only.
    SmallVector<GridAxis> over = src.axes;
    std::optional<DimLayout> outer =
        nestedSplit(grid, globalType ? globalType.getDimSize(d) : 0, dst, src);
    if (dst.isSplit() && outer && inWorldOrder(outer->axes))
      over = outer->axes;
    auto type = cast<RankedTensorType>(cur.getType());
    SmallVector<int64_t> shape(type.getShape());
    int64_t blocks = getSplitFactor(grid, over);
    shape[d] *= blocks;
    auto bigger = type.clone(shape);
    cur = AllGatherOp::create(b, loc, bigger, cur, Value(), to.getGrid(),
                              getAxesAttr(b.getContext(), over),
                              b.getI64IntegerAttr(d))
              .getResult();
    received += byteSize(bigger) - byteSize(type);
    os << "; summa.all_gather over " << formatAxes(over) << " of dimension "
       << d;
    if (over != src.axes) {
      gathered.back() = dst;
      continue;
    }
    if (RankedTensorType global = globalTypes.lookup(op.getResult());
        global && global.getDimSize(d) != shape[d]) {
      // Uneven blocks: the padding of the last ones cut off.
      shape[d] = global.getDimSize(d);
      SmallVector<OpFoldResult> at(shape.size(), b.getIndexAttr(0));
      SmallVector<OpFoldResult> extent, unit(shape.size(), b.getIndexAttr(1));
      for (int64_t size : shape)
        extent.push_back(b.getIndexAttr(size));
      cur = tensor::ExtractSliceOp::create(b, loc, bigger.clone(shape), cur, at,
                                           extent, unit);
      os << " (its padding cut off)";
    }
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
  cur = sliceToTarget(b, loc, cur, to, gathered, within, os);
  if (remarks)
    op.emitRemark() << "redistribution of " << op.getInput().getType()
                    << " from " << from << " to " << to << ": " << received
                    << " bytes received per rank" << log;
  valueLayouts[cur] = to;
  globalTypes[cur] = globalTypes.lookup(op.getResult());
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
