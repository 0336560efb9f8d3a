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

#include "Partitioner.h"

#include "summa/Dialect/Summa/OpRules/OpRules.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Support/Elementwise.h"
#include "summa/Support/Functions.h"
#include "summa/Support/IndexingMaps.h"
#include "llvm/ADT/SmallSet.h"

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
/// dimensions it indexes: the local op then computes on matching elements;
/// and that no dimension or loop reached through a window (`oh * s + kh`)
/// is split: the local op would read the wrong rows. summa-assign-layouts
/// guarantees both; this refuses, rather than miscompiles, IR that was laid
/// out by hand.
static LogicalResult
checkLoopLayouts(linalg::LinalgOp op,
                 const DenseMap<Value, LayoutAttr> &valueLayouts) {
  SmallVector<std::optional<DimLayout>> loops(op.getNumLoops());
  llvm::SmallBitVector windowed = getWindowedLoops(op);
  GridOp grid;
  for (OpOperand &operand : op->getOpOperands()) {
    LayoutAttr layout = valueLayouts.lookup(operand.get());
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!layout || !type)
      continue;
    for (auto [i, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      if (type.getDimSize(i) == 1)
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
      auto dim = dyn_cast<AffineDimExpr>(expr);
      bool window =
          !dim ? !isProjectedExpr(expr) : windowed.test(dim.getPosition());
      if (window && here.isSplit()) {
        std::string index;
        llvm::raw_string_ostream(index) << expr;
        return op->emitError()
               << "operand " << operand.getOperandNumber() << " dimension " << i
               << " (indexed by " << index << ") is split over "
               << formatAxes(here.axes)
               << "; a dimension reached through a window is whole on every "
                  "rank";
      }
      if (!dim)
        continue;
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

Value FunctionPartitioner::validExtent(OpBuilder &at, Value v, unsigned dim) {
  LayoutAttr layout = valueLayouts.lookup(v);
  RankedTensorType global = globalTypes.lookup(v);
  if (!layout || !global)
    return {};
  GridOp grid = getGrid(layout);
  if (!isUnevenSplit(global.getShape(), layout, grid, dim))
    return {};
  // This rank's block starts at block * b; what is left of n from there,
  // between 0 and b.
  Location loc = v.getLoc();
  int64_t size = global.getDimSize(dim);
  int64_t block =
      llvm::divideCeil(size, getSplitFactor(grid, layout.getDimSplit(dim)));
  Value start = arith::MulIOp::create(
      at, loc, blockIndex(at, loc, layout, layout.getDimSplit(dim)),
      arith::ConstantIndexOp::create(at, loc, block));
  Value left = arith::SubIOp::create(
      at, loc, arith::ConstantIndexOp::create(at, loc, size), start);
  left = arith::MaxSIOp::create(at, loc, left,
                                arith::ConstantIndexOp::create(at, loc, 0));
  return arith::MinSIOp::create(at, loc, left,
                                arith::ConstantIndexOp::create(at, loc, block));
}

LogicalResult FunctionPartitioner::maskPaddedReductions(linalg::LinalgOp op) {
  OpBuilder outside(op);
  // Per reduction loop split unevenly: the local iterations that are not
  // padding.
  SmallVector<std::pair<unsigned, Value>> valid;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    for (auto [i, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim ||
          iterators[dim.getPosition()] != utils::IteratorType::reduction ||
          llvm::any_of(valid, [&](auto &entry) {
            return entry.first == dim.getPosition();
          }))
        continue;
      if (Value extent = validExtent(outside, operand.get(), i))
        valid.push_back({dim.getPosition(), extent});
    }
  }
  if (valid.empty())
    return success();
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return op->emitError()
           << "summa-partition: a '" << op->getName()
           << "' reducing over a dimension split unevenly (padded blocks) "
              "must be a linalg.generic";
  Block *body = generic.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  OpBuilder inside(yield);
  Location loc = op.getLoc();
  Value keep;
  for (auto [loop, extent] : valid) {
    Value here = arith::CmpIOp::create(
        inside, loc, arith::CmpIPredicate::ult,
        linalg::IndexOp::create(inside, loc, loop), extent);
    keep = keep ? arith::AndIOp::create(inside, loc, keep, here).getResult()
                : here;
  }
  for (OpOperand &init : generic.getDpsInitsMutable()) {
    unsigned k = init.getOperandNumber() - generic.getNumDpsInputs();
    Value acc = generic.getMatchingBlockArgument(&init);
    yield->setOperand(k, arith::SelectOp::create(inside, loc, keep,
                                                 yield->getOperand(k), acc));
  }
  if (remarks)
    op->emitRemark() << "reduces over a dimension split unevenly: the "
                        "padding of the last blocks is skipped";
  return success();
}

Value FunctionPartitioner::zeroPadding(OpBuilder &b, Value v, unsigned dim,
                                       Value valid) {
  auto type = cast<RankedTensorType>(v.getType());
  Location loc = v.getLoc();
  int64_t rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value masked = linalg::GenericOp::create(
                     b, loc, TypeRange{type}, ValueRange{v}, ValueRange{empty},
                     ArrayRef<AffineMap>{id, id}, parallel,
                     [&](OpBuilder &nb, Location nl, ValueRange args) {
                       Value here = arith::CmpIOp::create(
                           nb, nl, arith::CmpIPredicate::ult,
                           linalg::IndexOp::create(nb, nl, dim), valid);
                       Type element = type.getElementType();
                       Value zero = arith::ConstantOp::create(
                           nb, nl, element, nb.getZeroAttr(element));
                       linalg::YieldOp::create(
                           nb, nl,
                           arith::SelectOp::create(nb, nl, here, args[0], zero)
                               .getResult());
                     })
                     .getResult(0);
  valueLayouts[masked] = valueLayouts.lookup(v);
  globalTypes[masked] = globalTypes.lookup(v);
  return masked;
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
    auto kindAttr = cast<ReductionKindAttr>(kind);
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

LogicalResult FunctionPartitioner::partitionOp(Operation *op) {
  if (op->getNumResults() == 0)
    return success();
  bool hasTensorResult =
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
  if (!hasTensorResult)
    return success();
  auto rule = dyn_cast<PartitionRuleOpInterface>(op);
  if (!rule)
    return op->emitError() << "'" << op->getName()
                           << "' is not supported by summa-partition";
  return rule.partition(*this);
}

LogicalResult FunctionPartitioner::localizeResults(Operation *op) {
  auto layouts = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
  for (OpResult res : op->getResults()) {
    FailureOr<Type> local = localType(
        res.getType(), layouts ? layouts[res.getResultNumber()] : Attribute(),
        op->getLoc());
    if (failed(local))
      return failure();
    res.setType(*local);
  }
  completeReduction(op);
  op->removeAttr(kLayoutsAttrName);
  return success();
}

LogicalResult FunctionPartitioner::partitionStructured(Operation *op) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  auto layouts = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
  // Matched before its linalg.index ops become global.
  std::optional<Gather> gather = matchGather(op);
  auto mm = dyn_cast<linalg::MatmulOp>(op);
  if ((!mm && failed(checkLoopLayouts(linalgOp, valueLayouts))) ||
      failed(globalizeIndices(linalgOp)) ||
      (gather && failed(partitionGather(*gather))) ||
      (!mm && failed(maskPaddedReductions(linalgOp))) ||
      failed(localizeResults(op)))
    return failure();
  if (mm)
    return partitionMatmul(mm, cast<LayoutAttr>(layouts[0]));
  return success();
}

LogicalResult FunctionPartitioner::partitionScatterOp(Operation *op) {
  if (failed(partitionScatter(cast<ScatterOp>(op))))
    return failure();
  return localizeResults(op);
}

LogicalResult FunctionPartitioner::partitionConstantOp(Operation *op) {
  auto layouts = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
  auto layout = layouts ? dyn_cast<LayoutAttr>(layouts[0]) : LayoutAttr();
  if (!layout)
    return op->emitError() << "value of type " << op->getResult(0).getType()
                           << " has no layout; run summa-assign-layouts "
                              "first";
  op->removeAttr(kLayoutsAttrName);
  return partitionConstant(cast<arith::ConstantOp>(op), layout);
}

LogicalResult FunctionPartitioner::lowerRelayoutOp(Operation *op) {
  return lowerRelayout(cast<RelayoutOp>(op));
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

void FunctionPartitioner::zeroContractedPadding(OpBuilder &b,
                                                linalg::MatmulOp mm,
                                                MatmulForm form) {
  for (auto [operand, k] :
       {std::make_pair(mm.getDpsInputOperand(0), getLhsContractedDim(form)),
        std::make_pair(mm.getDpsInputOperand(1), getRhsContractedDim(form))})
    if (Value valid = validExtent(b, operand->get(), k))
      operand->set(zeroPadding(b, operand->get(), k, valid));
}

/// A product whose operands are not in its SUMMA layouts (the layouts its
/// uses gave it: a one-column gate [tokens, hidden] . [hidden, 1] whose
/// column a broadcast keeps whole) is computed locally:
/// - where the operands disagree on the contracted dimension, the rhs is
///   redistributed to the lhs's split of it (when no other dimension of the
///   rhs uses those axes);
/// - where the result is laid out otherwise than the operands' rows and
///   columns (the weight's gradient of one column), the product is computed
///   in theirs (its accumulator redistributed to it) and redistributed to
///   the result's after, when rows, columns and the contracted dimension
///   use distinct axes;
/// - a contracted dimension split in both operands makes each rank's product
///   a partial sum, completed by an all-reduce over its axes (the padding of
///   an uneven split zeroed first).
LogicalResult FunctionPartitioner::partitionLocalMatmul(linalg::MatmulOp mm,
                                                        MatmulForm form,
                                                        LayoutAttr layout) {
  unsigned lhsK = getLhsContractedDim(form);
  unsigned lhsM = 1 - lhsK;
  unsigned rhsK = getRhsContractedDim(form);
  unsigned rhsN = 1 - rhsK;
  OpOperand *lhs = mm.getDpsInputOperand(0), *rhs = mm.getDpsInputOperand(1);
  Location loc = mm.getLoc();
  OpBuilder b(mm);
  LayoutAttr lhsLayout = valueLayouts.lookup(lhs->get());
  LayoutAttr rhsLayout = valueLayouts.lookup(rhs->get());
  RelayoutOp back;
  if (lhsLayout && rhsLayout) {
    DimLayout k = lhsLayout.getDim(lhsK);
    if (k != rhsLayout.getDim(rhsK) &&
        llvm::none_of(rhsLayout.getDim(rhsN).axes, [&](GridAxis a) {
          return llvm::is_contained(k.axes, a);
        })) {
      SmallVector<DimLayout> dims(rhsLayout.getDims());
      dims[rhsK] = k;
      rhsLayout = LayoutAttr::get(mm.getContext(), rhsLayout.getGrid(),
                                  ArrayRef<DimLayout>(dims));
      RelayoutOp moved = createRelayout(b, loc, rhs->get(), rhsLayout,
                                        globalTypes.lookup(rhs->get()));
      rhs->set(moved.getResult());
      if (failed(lowerRelayout(moved)))
        return failure();
    }
    DimLayout m = lhsLayout.getDim(lhsM), n = rhsLayout.getDim(rhsN);
    llvm::SmallSet<GridAxis, 3> seen;
    bool distinct = true;
    for (const DimLayout &dim : {m, n, k})
      for (GridAxis a : dim.axes)
        distinct &= seen.insert(a).second;
    auto natural = LayoutAttr::get(mm.getContext(), layout.getGrid(),
                                   ArrayRef<DimLayout>{m, n});
    RankedTensorType global = globalTypes.lookup(mm->getResult(0));
    FailureOr<Type> local = failure();
    if (global && natural != layout && distinct)
      local = localType(global, natural, loc);
    if (succeeded(local)) {
      OpOperand *acc = mm.getDpsInitOperand(0);
      RelayoutOp moved = createRelayout(b, loc, acc->get(), natural, global);
      acc->set(moved.getResult());
      if (failed(lowerRelayout(moved)))
        return failure();
      mm->getResult(0).setType(*local);
      b.setInsertionPointAfter(mm);
      back = createRelayout(b, loc, mm->getResult(0), layout, global);
      mm->getResult(0).replaceAllUsesExcept(back.getResult(), back);
      layout = natural;
    }
  }
  if (failed(checkLoopLayouts(mm, valueLayouts)))
    return failure();
  valueLayouts[mm->getResult(0)] = layout;
  SmallVector<GridAxis> contracted;
  if (LayoutAttr lhsNow = valueLayouts.lookup(lhs->get()))
    contracted = SmallVector<GridAxis>(lhsNow.getDimSplit(lhsK));
  if (contracted.empty()) {
    if (remarks)
      mm.emitRemark() << "local matmul: no contracted dimension is split";
  } else {
    b.setInsertionPoint(mm);
    zeroContractedPadding(b, mm, form);
    b.setInsertionPointAfter(mm);
    Value partial = mm->getResult(0);
    auto reduced = AllReduceOp::create(
        b, loc, partial.getType(), partial, layout.getGrid(),
        getAxesAttr(mm.getContext(), contracted),
        ReductionKindAttr::get(mm.getContext(), ReductionKind::sum));
    partial.replaceAllUsesExcept(reduced.getResult(), reduced);
    valueLayouts[reduced.getResult()] = layout;
    if (remarks)
      mm.emitRemark() << "local matmul whose contracted dimension is split "
                         "over "
                      << formatAxes(contracted)
                      << " in both operands: summa.all_reduce (sum) over "
                      << formatAxes(contracted);
  }
  return back ? lowerRelayout(back) : success();
}

LogicalResult FunctionPartitioner::partitionMatmul(linalg::MatmulOp mm,
                                                   LayoutAttr layout) {
  std::optional<MatmulForm> form = getMatmulForm(mm.getIndexingMapsArray());
  bool summa = false;
  if (form) {
    LayoutAttr lhsLayout = valueLayouts.lookup(mm.getDpsInputOperand(0)->get());
    int64_t groupsK =
        lhsLayout ? lhsLayout.getDimGroups(getLhsContractedDim(*form)) : 1;
    MatmulLayouts want = getMatmulLayouts(mm.getContext(), layout.getGrid(),
                                          *form, layout.getDimGroups(0),
                                          layout.getDimGroups(1), groupsK);
    summa = valueLayouts.lookup(mm.getDpsInputOperand(0)->get()) == want.lhs &&
            valueLayouts.lookup(mm.getDpsInputOperand(1)->get()) == want.rhs &&
            layout == want.result;
  }
  if (!summa && !form) {
    // Not a SUMMA form: its loops must agree across the operands.
    if (failed(checkLoopLayouts(mm, valueLayouts)))
      return failure();
    valueLayouts[mm->getResult(0)] = layout;
    if (remarks)
      mm.emitRemark() << "local matmul: no contracted dimension is split";
    return success();
  }
  if (!summa)
    return partitionLocalMatmul(mm, *form, layout);
  OpBuilder b(mm);
  zeroContractedPadding(b, mm, *form);
  Value lhs = mm.getDpsInputOperand(0)->get();
  Value rhs = mm.getDpsInputOperand(1)->get();
  auto summaMm =
      MatmulOp::create(b, mm.getLoc(), mm->getResult(0).getType(), lhs, rhs,
                       mm.getDpsInitOperand(0)->get(), layout.getGrid(),
                       MatmulFormAttr::get(b.getContext(), *form),
                       /*depth_scatter=*/IntegerAttr());
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
    for (Value res : op->getResults())
      if (auto type = dyn_cast<RankedTensorType>(res.getType()))
        globalTypes[res] = type;
  });
  for (BlockArgument arg : func.getArguments())
    if (auto type = dyn_cast<RankedTensorType>(arg.getType()))
      globalTypes[arg] = type;

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
    if (failed(requireOpRules(getOperation())))
      return signalPassFailure();
    for (func::FuncOp func : definedFunctions(getOperation())) {
      FunctionPartitioner partitioner(func, emitRemarks);
      if (failed(partitioner.run()))
        return signalPassFailure();
    }
  }
};
} // namespace
