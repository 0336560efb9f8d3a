//===- Normalize.cpp - exporters' forms into summa's ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-normalize: batched contractions as generics, with the
// reshapes that merge their batch dimensions folded into them (see the
// pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Passes.h"

#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Support/Elementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMANORMALIZE
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

/// A generic with at least two parallel loops shared by all of its operands
/// (batch dimensions) and a reduction: a batched contraction.
static bool isBatchedContraction(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumReductionLoops() == 0 || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1)
    return false;
  if (!linalg::isaContractionOpInterface(generic))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(generic);
  return succeeded(dims) && !dims->batch.empty();
}

/// `init + lhs · rhs` as a linalg.matmul with the indexing maps `maps`.
static Value createMatmul(RewriterBase &rewriter, Location loc, Value lhs,
                          Value rhs, Value init, ArrayRef<AffineMap> maps) {
  SmallVector<Attribute> mapAttrs;
  for (AffineMap m : maps)
    mapAttrs.push_back(AffineMapAttr::get(m));
  return linalg::MatmulOp::create(
             rewriter, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
             ValueRange{init},
             {rewriter.getNamedAttr("indexing_maps",
                                    rewriter.getArrayAttr(mapAttrs))})
      ->getResult(0);
}

/// The contiguous runs of `map`'s results that belong to the same group of
/// `groups` (loop dims), in order, as result positions; fails if a group's
/// dims are not contiguous or not in the group's order.
static FailureOr<SmallVector<std::pair<int, ReassociationIndices>>>
groupRuns(AffineMap map, ArrayRef<SmallVector<unsigned>> groups) {
  SmallVector<std::pair<int, ReassociationIndices>> runs;
  auto groupOf = [&](unsigned loop) -> int {
    for (auto [g, dims] : llvm::enumerate(groups))
      if (llvm::is_contained(dims, loop))
        return g;
    return -1;
  };
  for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return failure();
    int g = groupOf(dim.getPosition());
    if (g < 0)
      return failure();
    if (runs.empty() || runs.back().first != g)
      runs.push_back({g, {}});
    runs.back().second.push_back(pos);
  }
  // Each group once, with its dims in the group's order.
  llvm::SmallBitVector seen(groups.size());
  for (auto &[g, run] : runs) {
    if (seen.test(g) || run.size() != groups[g].size())
      return failure();
    seen.set(g);
    for (auto [i, pos] : llvm::enumerate(run))
      if (cast<AffineDimExpr>(map.getResult(pos)).getPosition() != groups[g][i])
        return failure();
  }
  return runs;
}

/// A contraction written as a generic with a multiply-add body and no batch
/// dimension (JAX writes its backward products so, and its products with a
/// 3-D activation) becomes a linalg.matmul over the operands with each group
/// of M, N and K dimensions collapsed into one, when every group is
/// contiguous and in the same order in each operand: the SUMMA forms are
/// then recognised by summa-assign-layouts.
static LogicalResult raiseContraction(RewriterBase &rewriter,
                                      linalg::GenericOp generic) {
  if (!generic.hasPureTensorSemantics() || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(generic))
    return failure();
  Type element = getElementTypeOrSelf(generic->getResult(0).getType());
  for (Value v : generic->getOperands())
    if (getElementTypeOrSelf(v.getType()) != element)
      return failure();
  // Exactly multiply, add, yield: no casts to keep.
  if (generic.getBody()->getOperations().size() != 3)
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(generic);
  if (failed(dims) || !dims->batch.empty() || dims->m.empty() ||
      dims->n.empty() || dims->k.empty())
    return failure();
  // Groups in loop order: 0 = M, 1 = N, 2 = K.
  SmallVector<SmallVector<unsigned>> groups = {
      SmallVector<unsigned>(dims->m.begin(), dims->m.end()),
      SmallVector<unsigned>(dims->n.begin(), dims->n.end()),
      SmallVector<unsigned>(dims->k.begin(), dims->k.end())};
  for (SmallVector<unsigned> &g : groups)
    llvm::sort(g);
  MLIRContext *ctx = generic.getContext();
  Location loc = generic.getLoc();
  SmallVector<AffineMap> maps;
  SmallVector<Value> operands;
  SmallVector<ReassociationIndices> resultGroups;
  for (OpOperand &operand : generic->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type)
      return failure();
    auto runs = groupRuns(generic.getMatchingIndexingMap(&operand), groups);
    if (failed(runs))
      return failure();
    SmallVector<AffineExpr> exprs;
    SmallVector<ReassociationIndices> reassociation;
    for (auto &[g, run] : *runs) {
      exprs.push_back(getAffineDimExpr(g, ctx));
      reassociation.push_back(run);
    }
    maps.push_back(AffineMap::get(3, 0, exprs, ctx));
    operands.push_back(operand.get());
    if (generic.isDpsInit(&operand))
      resultGroups = reassociation;
    if (static_cast<int64_t>(reassociation.size()) != type.getRank())
      operands.back() = tensor::CollapseShapeOp::create(
          rewriter, loc, operand.get(), reassociation);
  }
  // Loops (d0, d1, d2) = (M, N, K): the maps must be one of the SUMMA
  // forms, with the result (M, N).
  if (!getMatmulForm(maps))
    return failure();
  Value result =
      createMatmul(rewriter, loc, operands[0], operands[1], operands[2], maps);
  auto resultType = cast<RankedTensorType>(generic->getResult(0).getType());
  if (result.getType() != resultType)
    result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                           resultGroups);
  rewriter.replaceOp(generic, result);
  return success();
}

/// The input of `op` and its indexing map on `op`'s result dimensions if
/// `op` only copies it (a generic whose body yields its one input, an
/// output written in loop order): a broadcast (torch-mlir repeats a weight
/// over the batch before a batch_matmul), a transpose or a plain copy.
static std::optional<std::pair<Value, AffineMap>> copiedInput(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 ||
      generic.getBody()->getOperations().size() != 1)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (yield.getOperand(0) != generic.getBody()->getArgument(0))
    return std::nullopt;
  AffineMap out = generic.getIndexingMapsArray()[1];
  AffineMap in = generic.getIndexingMapsArray()[0];
  if (!out.isIdentity() || !in.isProjectedPermutation())
    return std::nullopt;
  return std::make_pair(generic.getDpsInputOperand(0)->get(), in);
}

/// Reads of a copy (a broadcast, transpose or copy generic) as reads of
/// what it copies, through the composed map: the batched product of an
/// activation with a weight repeated over the batch is then a product with
/// the weight, whose batch is a dimension of M (raiseContraction makes it
/// one GEMM), and no copy of the weight per batch element is made. Only
/// where the consumer is a contraction (its other ops keep their reads).
static bool foldCopiedOperands(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0)
    return false;
  bool changed = false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (OpOperand *input : op.getDpsInputOperands()) {
    std::optional<std::pair<Value, AffineMap>> copied =
        copiedInput(input->get().getDefiningOp());
    if (!copied)
      continue;
    unsigned i = input->getOperandNumber();
    maps[i] = copied->second.compose(maps[i]);
    input->set(copied->first);
    changed = true;
  }
  if (changed)
    op.setIndexingMapsAttr(
        Builder(op.getContext()).getAffineMapArrayAttr(maps));
  return changed;
}

/// The input of `op` if it is a 2-D transpose (linalg.transpose, or a
/// generic that only yields its one input through a swapped map).
static Value transposedInput(Operation *op) {
  if (auto t = dyn_cast<linalg::TransposeOp>(op))
    return t.hasPureTensorSemantics() &&
                   t.getPermutation() == ArrayRef<int64_t>{1, 0}
               ? t.getInput()
               : Value();
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != 2 || generic.getNumParallelLoops() != 2 ||
      generic.getBody()->getOperations().size() != 1)
    return Value();
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (yield.getOperand(0) != generic.getBody()->getArgument(0))
    return Value();
  AffineMap in = generic.getIndexingMapsArray()[0];
  AffineMap out = generic.getIndexingMapsArray()[1];
  if (!in.isPermutation() || !out.isPermutation() || in == out)
    return Value();
  return generic.getDpsInputOperand(0)->get();
}

/// The transpose of a backward product, as JAX writes a weight gradient
/// (dWᵀ = dYᵀ·X, then a transpose), is the product with its operands
/// swapped: (Aᵀ·B)ᵀ = Bᵀ·A and (A·Bᵀ)ᵀ = B·Aᵀ. Computing it so gives the
/// gradient the weight's own layout, with no redistribution.
static LogicalResult foldTransposeIntoProduct(RewriterBase &rewriter,
                                              Operation *transpose) {
  Value input = transposedInput(transpose);
  auto mm = input ? input.getDefiningOp<linalg::MatmulOp>() : nullptr;
  if (!mm || !input.hasOneUse())
    return failure();
  std::optional<MatmulForm> form = getMatmulForm(mm.getIndexingMapsArray());
  if (!form || *form == MatmulForm::ab)
    return failure();
  auto fill = mm.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill)
    return failure();
  auto resultType = cast<RankedTensorType>(transpose->getResult(0).getType());
  Location loc = mm.getLoc();
  rewriter.setInsertionPoint(transpose);
  Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                        resultType.getElementType());
  Value init = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
                   .getResult(0);
  Value swapped = createMatmul(rewriter, loc, mm.getDpsInputOperand(1)->get(),
                               mm.getDpsInputOperand(0)->get(), init,
                               mm.getIndexingMapsArray());
  rewriter.replaceOp(transpose, swapped);
  rewriter.eraseOp(mm);
  return success();
}

/// A product of a transposed operand (PyTorch's nn.Linear transposes its
/// [out, in] weight; the LM head its tied embedding) as the product of the
/// operand itself in the SUMMA form with the transposing map: A·(Bᵀ) is
/// A·Bᵀ, (Aᵀ)·B is Aᵀ·B. The GEMM reads the operand where it is, instead of
/// a copy of the whole matrix per call; the transpose goes if nothing else
/// reads it.
static LogicalResult foldTransposedOperands(RewriterBase &rewriter,
                                            linalg::MatmulOp mm) {
  if (!mm.hasPureTensorSemantics())
    return failure();
  SmallVector<AffineMap> maps = mm.getIndexingMapsArray();
  SmallVector<Value> inputs(mm.getDpsInputs());
  bool changed = false;
  for (int i = 0; i < 2; ++i) {
    Operation *def = inputs[i].getDefiningOp();
    Value source = def ? transposedInput(def) : Value();
    if (!source)
      continue;
    SmallVector<AffineMap> candidate(maps);
    AffineMap m = maps[i];
    candidate[i] = AffineMap::get(
        m.getNumDims(), 0, {m.getResult(1), m.getResult(0)}, m.getContext());
    if (!getMatmulForm(candidate))
      continue;
    maps = candidate;
    inputs[i] = source;
    changed = true;
  }
  if (!changed)
    return failure();
  rewriter.setInsertionPoint(mm);
  Value product = createMatmul(rewriter, mm.getLoc(), inputs[0], inputs[1],
                               mm.getDpsInits()[0], maps);
  rewriter.replaceOp(mm, product);
  return success();
}

/// `value` converted elementwise to the element type `to` (wider: extf
/// for floats; extsi, or extui for an unsigned cast, for integers:
/// linalg.matmul's own casts).
static Value widen(RewriterBase &rewriter, Location loc, Value value, Type to,
                   bool isUnsigned) {
  if (getElementTypeOrSelf(value.getType()) == to)
    return value;
  return mapElements(rewriter, loc, value, to,
                     [&](OpBuilder &b, Location l, Value element) -> Value {
                       if (isa<FloatType>(to))
                         return arith::ExtFOp::create(b, l, to, element);
                       if (isUnsigned)
                         return arith::ExtUIOp::create(b, l, to, element);
                       return arith::ExtSIOp::create(b, l, to, element);
                     });
}

SmallVector<NamedAttribute> mlir::summa::productAttributes(Operation *matmul) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : matmul->getAttrs())
    if (attr.getName() != "operandSegmentSizes" && attr.getName() != "cast")
      attrs.push_back(attr);
  return attrs;
}

/// A linalg.matmul of narrower inputs into a wider C (bf16 x bf16 into
/// f32, as torch-mlir writes a bf16 linear layer) as the same product of
/// inputs widened first: the values and the accumulation are the same, and
/// summa.matmul, its panels and the runtime's GEMM take one element type.
static LogicalResult widenMixedMatmul(RewriterBase &rewriter,
                                      linalg::MatmulOp op) {
  Type acc = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  auto narrower = [&](Value v) {
    Type t = getElementTypeOrSelf(v.getType());
    return t != acc && t.getIntOrFloatBitWidth() < acc.getIntOrFloatBitWidth();
  };
  if (!op.hasPureTensorSemantics() ||
      !llvm::any_of(op.getDpsInputs(), narrower) ||
      !llvm::all_of(op.getDpsInputs(),
                    [&](Value v) {
                      Type t = getElementTypeOrSelf(v.getType());
                      return t == acc || narrower(v);
                    }) ||
      isa<FloatType>(acc) != llvm::all_of(op.getDpsInputs(), [](Value v) {
        return isa<FloatType>(getElementTypeOrSelf(v.getType()));
      }))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  bool isUnsigned = op.getCast() == linalg::TypeFn::cast_unsigned;
  Value lhs = widen(rewriter, loc, op.getDpsInputs()[0], acc, isUnsigned);
  Value rhs = widen(rewriter, loc, op.getDpsInputs()[1], acc, isUnsigned);
  // A new op: the body's block arguments take the new input types.
  rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
      op, op->getResultTypes(), ValueRange{lhs, rhs}, op.getDpsInits(),
      productAttributes(op));
  return success();
}

/// A generic with a reduction loop before a parallel one, its loops
/// reordered with the reductions innermost (each output element still sums
/// its terms in the same order): the parallel loops then form the
/// outermost nest, the one the GPU maps onto threads and a contraction's
/// batch dimensions. Derived backward generics come out this way.
static void reductionsInnermost(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (auto [d, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      order.push_back(d);
  for (auto [d, it] : llvm::enumerate(iterators))
    if (it != utils::IteratorType::parallel)
      order.push_back(d);
  if (llvm::equal(order, llvm::seq<unsigned>(0, iterators.size())))
    return;
  rewriter.setInsertionPoint(op);
  (void)linalg::interchangeGenericOp(rewriter, op, order);
}

LogicalResult mlir::summa::normalizeForms(Operation *root) {
  MLIRContext *ctx = root->getContext();
  // Inputs a body never reads (a derived step's adjoint generics carry
  // the operands of the op they differentiate) go first: they would keep
  // buffers alive and hide contractions from raiseContraction.
  {
    RewritePatternSet unused(ctx);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(unused);
    if (failed(applyPatternsGreedily(root, std::move(unused))))
      return failure();
  }
  IRRewriter rewriter(ctx);
  root->walk([&](linalg::GenericOp op) {
    if (op.hasPureTensorSemantics())
      reductionsInnermost(rewriter, op);
  });
  SmallVector<linalg::BatchMatmulOp> batched;
  root->walk([&](linalg::BatchMatmulOp op) {
    if (op.hasPureTensorSemantics())
      batched.push_back(op);
  });
  for (linalg::BatchMatmulOp op : batched) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op))) {
      op.emitError() << "summa-normalize: cannot write this "
                        "linalg.batch_matmul as a linalg.generic";
      return failure();
    }
  }
  // Mixed-precision products take their inputs widened.
  SmallVector<linalg::MatmulOp> matmuls;
  root->walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
  for (linalg::MatmulOp op : matmuls)
    (void)widenMixedMatmul(rewriter, op);
  // Contractions read what broadcasts and copies copy; contractions
  // spelled as generics become linalg.matmul.
  SmallVector<linalg::GenericOp> generics;
  root->walk([&](linalg::GenericOp op) { generics.push_back(op); });
  for (linalg::GenericOp op : generics)
    if (linalg::isaContractionOpInterface(op))
      (void)foldCopiedOperands(op);
  for (linalg::GenericOp op : generics) {
    rewriter.setInsertionPoint(op);
    (void)raiseContraction(rewriter, op);
  }
  // Products of transposed operands read the operands themselves.
  matmuls.clear();
  root->walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
  for (linalg::MatmulOp op : matmuls)
    (void)foldTransposedOperands(rewriter, op);
  // Transposes of backward products become the swapped products.
  SmallVector<Operation *> transposes;
  root->walk([&](Operation *op) {
    if (transposedInput(op))
      transposes.push_back(op);
  });
  for (Operation *op : transposes)
    (void)foldTransposeIntoProduct(rewriter, op);
  // Fold the reshapes on either side of a batched contraction into it.
  RewritePatternSet patterns(ctx);
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [](OpOperand *fused) {
        Operation *producer = fused->get().getDefiningOp();
        Operation *consumer = fused->getOwner();
        return isBatchedContraction(producer) || isBatchedContraction(consumer);
      });
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  if (failed(applyPatternsGreedily(root, std::move(patterns))))
    return failure();
  return success();
}

namespace {
struct SummaNormalizePass
    : summa::impl::SummaNormalizeBase<SummaNormalizePass> {
  void runOnOperation() override {
    if (failed(normalizeForms(getOperation())))
      signalPassFailure();
  }
};
} // namespace
