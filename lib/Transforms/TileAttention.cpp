//===- TileAttention.cpp - attention a block of query rows at a time ------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-tile-attention: an attention, recognised by its data flow
// rather than by the ops an exporter wrote it with, is tiled with upstream's
// tile-and-fuse so that the scores of one head and one block of query rows
// exist at a time.
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMATILEATTENTION
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

namespace {

/// An attention as its data flow shows it: `output` contracts the
/// probabilities with the values; the probabilities come from the
/// contraction `scores` of queries with keys through the ops `between` and
/// the `reshapes` between them, which only insert or drop dimensions of
/// size one (a row maximum kept as `[rows, 1]`).
struct Attention {
  linalg::LinalgOp output;
  linalg::LinalgOp scores;
  llvm::SetVector<Operation *> between;
  llvm::SetVector<Operation *> reshapes;
  /// The scores and ops between that are also read after the attention (a
  /// training step's backward reads the probabilities): the loop computes
  /// them whole too.
  llvm::SetVector<Operation *> shared;
  /// Reshapes of shared values, placed before the attention but read only
  /// after it: they move after the loop.
  llvm::SetVector<Operation *> lateViews;
};

bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumDpsInputs() == 2 &&
         linalgOp.getNumDpsInits() == 1 &&
         linalg::isaContractionOpInterface(linalgOp);
}

/// For a reshape that only inserts or drops dimensions of size one, the map
/// that indexes its source where `map` indexes its result; none for any
/// other reshape. A dimension of size one is indexed by 0.
std::optional<AffineMap> sourceMap(Operation *reshape, AffineMap map) {
  auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape);
  auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape);
  if (!expand && !collapse)
    return std::nullopt;
  // The type with more dimensions, and per dimension of the other one the
  // group of its dimensions.
  RankedTensorType big =
      expand ? expand.getResultType() : collapse.getSrcType();
  SmallVector<ReassociationIndices> groups =
      expand ? expand.getReassociationIndices()
             : collapse.getReassociationIndices();
  MLIRContext *ctx = map.getContext();
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  SmallVector<AffineExpr> results;
  for (auto [small, group] : llvm::enumerate(groups)) {
    SmallVector<int64_t> wide = llvm::filter_to_vector(
        group, [&](int64_t d) { return big.getDimSize(d) != 1; });
    if (wide.size() > 1)
      return std::nullopt;
    if (expand) {
      results.push_back(wide.empty() ? zero : map.getResult(wide.front()));
      continue;
    }
    for (int64_t d : group)
      results.push_back(
          wide.empty() || d != wide.front() ? zero : map.getResult(small));
  }
  return AffineMap::get(map.getNumDims(), 0, results, ctx);
}

/// Whether `reshape` only inserts or drops dimensions of size one.
bool isUnitReshape(Operation *reshape) {
  auto rank = cast<ShapedType>(reshape->getResult(0).getType()).getRank();
  return sourceMap(reshape, AffineMap::getMultiDimIdentityMap(
                                rank, reshape->getContext()))
      .has_value();
}

/// Whether `op` is a contraction with batch dimensions (batch, heads), as
/// both products of an attention are.
bool isBatchedContraction(Operation *op) {
  if (!isContraction(op))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(cast<linalg::LinalgOp>(op));
  return succeeded(dims) && !dims->batch.empty();
}

/// Keeps, of the ops a walk back from the probabilities found, those
/// computed from the scores: the ops that give the softmax other inputs (a
/// mask computed from positions) are not the attention's and stay where
/// they are.
void keepWhatReadsScores(Attention &a) {
  llvm::SmallPtrSet<Operation *, 16> fromScores = {a.scores};
  auto reads = [&](Operation *op) {
    return llvm::any_of(op->getOperands(), [&](Value v) {
      return fromScores.contains(v.getDefiningOp());
    });
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (Operation *op : llvm::concat<Operation *const>(a.between, a.reshapes))
      if (!fromScores.contains(op) && reads(op))
        grew = fromScores.insert(op).second || grew;
  }
  a.between.remove_if([&](Operation *op) { return !fromScores.contains(op); });
  a.reshapes.remove_if([&](Operation *op) { return !fromScores.contains(op); });
}

/// Walks from the probabilities `p` back to the scores: through structured
/// ops on tensors (their inputs only; initial values are not data flow) and
/// reshapes of size-one dimensions, up to exactly one batched contraction.
/// Fails with the first reason in `why`; `looksLikeOne` says whether the
/// walk found one batched product and a reduction (a softmax) before it,
/// so that a failure is worth a remark.
FailureOr<Attention> traceScores(linalg::LinalgOp output, Value p,
                                 std::string &why, bool &looksLikeOne) {
  Attention a;
  a.output = output;
  SmallVector<Value> work = {p};
  llvm::SmallPtrSet<Operation *, 16> seen;
  bool reduction = false, oneProduct = true;
  auto fail = [&](StringRef reason) {
    if (why.empty())
      why = reason.str();
  };
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
      Value source = op->getOperand(0);
      if (!source.getDefiningOp<linalg::LinalgOp>())
        continue; // an input from outside, e.g. a mask
      // A reshape of size-one dimensions is folded into its readers; an
      // expansion that splits a dimension (the heads into groups) is moved
      // below the slices tiling takes of it; nothing else is taken.
      if (!isUnitReshape(op) && !isa<tensor::ExpandShapeOp>(op))
        fail("the probabilities are reshaped on the way (dimensions merged)");
      a.reshapes.insert(op);
      work.push_back(source);
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
        isa<linalg::FillOp>(op)) {
      // An input from outside (a slice of a mask, a constant); the
      // probabilities themselves must be computed.
      if (op == p.getDefiningOp())
        fail("the probabilities do not come from structured ops on tensors");
      continue;
    }
    if (isContraction(op)) {
      oneProduct &= !a.scores && isBatchedContraction(op);
      a.scores = linalgOp;
      continue;
    }
    reduction |= linalgOp.getNumReductionLoops() > 0;
    a.between.insert(op);
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      if (!input->get().getDefiningOp<linalg::FillOp>())
        work.push_back(input->get());
  }
  if (a.scores) {
    keepWhatReadsScores(a);
    reduction = llvm::any_of(a.between, [](Operation *op) {
      return cast<linalg::LinalgOp>(op).getNumReductionLoops() > 0;
    });
  }
  looksLikeOne = a.scores && oneProduct && reduction;
  if (!looksLikeOne)
    fail("not the product of a softmax of one product");
  // A reshape is folded into the ops that read it: they must be generics.
  for (Operation *reshape : a.reshapes)
    for (Operation *user : reshape->getUsers())
      if (!isa<linalg::GenericOp>(user) ||
          (!a.between.contains(user) && user != a.output))
        fail("a reshape of the scores is read outside the softmax");
  if (!why.empty())
    return failure();
  return a;
}

/// Checks that what reads the attention's scores, or what is computed from
/// them, outside it comes after it (a backward: those values are then
/// computed whole as well, `a.shared`), and that no reshape of them is read
/// outside; otherwise says who reads them in `why`.
LogicalResult checkPrivate(Attention &a, std::string &why) {
  SmallVector<Operation *> inside(a.between.begin(), a.between.end());
  inside.append(a.reshapes.begin(), a.reshapes.end());
  inside.push_back(a.scores);
  a.shared.clear();
  a.lateViews.clear();
  auto after = [&](Operation *reader) {
    Operation *at = a.output->getBlock()->findAncestorOpInBlock(*reader);
    return at && a.output->isBeforeInBlock(at);
  };
  for (Operation *op : inside)
    for (Operation *user : op->getUsers()) {
      if (user == a.output || a.between.contains(user) ||
          a.reshapes.contains(user))
        continue;
      // A reshape the exporter put right after its source, read after the
      // attention only.
      bool lateView =
          isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
          user->getBlock() == a.output->getBlock() &&
          llvm::all_of(user->getUsers(), after);
      if ((after(user) || lateView) && !a.reshapes.contains(op)) {
        a.shared.insert(op);
        if (lateView && !after(user))
          a.lateViews.insert(user);
        continue;
      }
      std::string where;
      llvm::raw_string_ostream os(where);
      os << user->getLoc();
      why = "its scores or probabilities are also read by " +
            user->getName().getStringRef().str() + " at " + where +
            (after(user) ? " through a reshape" : " before it");
      return failure();
    }
  return success();
}

/// The attention whose probabilities `output` contracts, if it is one;
/// `softmax` as in traceScores.
FailureOr<Attention> matchAttention(linalg::LinalgOp output, std::string &why,
                                    bool &softmax) {
  if (!isBatchedContraction(output) || !output.hasPureTensorSemantics()) {
    why = "not a product on tensors";
    return failure();
  }
  // The probabilities are the operand that comes from a softmax; the values
  // (V) come from a reshape or an argument.
  for (OpOperand *operand : output.getDpsInputOperands()) {
    std::string reason;
    bool looksLikeOne = false;
    FailureOr<Attention> a =
        traceScores(output, operand->get(), reason, looksLikeOne);
    if (failed(a)) {
      if (looksLikeOne || why.empty())
        why = reason;
      softmax |= looksLikeOne;
      continue;
    }
    softmax = true;
    if (failed(checkPrivate(*a, why)))
      return failure();
    return a;
  }
  return failure();
}

/// Makes the ops that read a reshape of size-one dimensions read its
/// source instead, indexed through the map sourceMap gives; the reshapes
/// left in `a` are the others.
void foldReshapes(RewriterBase &rewriter, Attention &a) {
  for (Operation *reshape : a.reshapes.takeVector()) {
    if (!isUnitReshape(reshape)) {
      a.reshapes.insert(reshape);
      continue;
    }
    for (OpOperand &use :
         llvm::make_early_inc_range(reshape->getResult(0).getUses())) {
      auto generic = cast<linalg::GenericOp>(use.getOwner());
      SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
      unsigned index = use.getOperandNumber();
      maps[index] = *sourceMap(reshape, maps[index]);
      rewriter.modifyOpInPlace(generic, [&] {
        use.set(reshape->getOperand(0));
        generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
    }
    rewriter.eraseOp(reshape);
  }
}

/// Rewrites an op of the softmax whose result is indexed with constants (a
/// row maximum written as `[rows, 1]`, torch's keepdim), which upstream's
/// tiling cannot slice: the op writes `[rows]`, and a reshape of size-one
/// dimensions gives its readers the `[rows, 1]` they read (folded into them
/// by foldReshapes). Returns the collapses of their initial values.
SmallVector<Operation *> dropConstantResultDims(RewriterBase &rewriter,
                                                const Attention &a) {
  SmallVector<Operation *> inits;
  for (Operation *op : a.between) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || generic.getNumDpsInits() != 1)
      continue;
    OpOperand *init = generic.getDpsInitOperand(0);
    auto type = cast<RankedTensorType>(init->get().getType());
    AffineMap map = generic.getMatchingIndexingMap(init);
    SmallVector<AffineExpr> kept;
    SmallVector<int64_t> shape;
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (constant && constant.getValue() == 0 && type.getDimSize(d) == 1)
        continue;
      kept.push_back(expr);
      shape.push_back(type.getDimSize(d));
    }
    if (kept.size() == map.getNumResults() || kept.empty())
      continue;
    std::optional<SmallVector<ReassociationIndices>> groups =
        getReassociationIndicesForCollapse(type.getShape(), shape);
    if (!groups)
      continue;
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    auto small = RankedTensorType::get(shape, type.getElementType());
    auto collapsed = tensor::CollapseShapeOp::create(rewriter, loc, small,
                                                     init->get(), *groups);
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    maps.back() = AffineMap::get(map.getNumDims(), 0, kept, op->getContext());
    auto reduced = linalg::GenericOp::create(
        rewriter, loc, TypeRange{small}, generic.getDpsInputs(),
        ValueRange{collapsed}, maps, generic.getIteratorTypesArray());
    rewriter.inlineRegionBefore(generic.getRegion(), reduced.getRegion(),
                                reduced.getRegion().begin());
    auto expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, type, reduced.getResult(0), *groups);
    rewriter.replaceOp(op, expanded.getResult());
    inits.push_back(collapsed);
  }
  return inits;
}

/// The tile sizes of `output`'s loops: batch dimensions (batch, heads) by
/// one, the innermost query dimension by the largest divisor of its extent
/// that keeps a block of scores within `tileElements`, other query
/// dimensions by one; value and key dimensions whole.
FailureOr<SmallVector<int64_t>> tileSizes(linalg::LinalgOp output,
                                          int64_t tileElements, int64_t &rows) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(output);
  SmallVector<int64_t> ranges = output.getStaticLoopRanges();
  if (failed(dims) || dims->m.empty() ||
      llvm::any_of(ranges, ShapedType::isDynamic))
    return failure();
  int64_t keys = 1;
  for (unsigned k : dims->k)
    keys *= ranges[k];
  SmallVector<int64_t> sizes(ranges.size(), 0);
  for (unsigned b : dims->batch)
    sizes[b] = 1;
  for (unsigned m : dims->m)
    sizes[m] = 1;
  int64_t queries = ranges[dims->m.back()];
  int64_t limit =
      std::max<int64_t>(1, tileElements / std::max<int64_t>(keys, 1));
  rows = 1;
  for (int64_t r = std::min(queries, limit); r >= 1; --r)
    if (queries % r == 0) {
      rows = r;
      break;
    }
  // All the rows at once: the dimension is not tiled (no loop of one trip).
  sizes[dims->m.back()] = rows == queries ? 0 : rows;
  return sizes;
}

/// Folds the attention's size-one reshapes (foldReshapes), then tiles
/// `output` and fuses the scores and the ops between into the loops;
/// returns the outermost loop. Fails, leaving the attention untiled, where
/// one of them could not be fused.
FailureOr<Operation *> tileAttention(RewriterBase &rewriter, Attention a,
                                     ArrayRef<int64_t> sizes) {
  foldReshapes(rewriter, a);
  llvm::SmallPtrSet<Operation *, 16> fusible(a.between.begin(),
                                             a.between.end());
  fusible.insert(a.scores);
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  // A slice of a split of the heads is a split of a slice: tiling fuses
  // through it (grouped-query attention).
  RewritePatternSet cleanup(rewriter.getContext());
  tensor::populateBubbleUpExtractSliceOpPatterns(cleanup);
  options.cleanupPatterns = FrozenRewritePatternSet(std::move(cleanup));
  // The attention's own ops, and the fills that initialise their results.
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *op = producer.getOwner();
        if (fusible.contains(op) || isa<linalg::FillOp>(op))
          return scf::SCFTileAndFuseOptions::ControlFnResult{
              /*yieldProducerReplacement=*/a.shared.contains(op)};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(a.output);
  // Where upstream cannot tile an op it says so as an error; here that is
  // a reason to leave the attention as it is (the caller's remark).
  ScopedDiagnosticHandler quiet(rewriter.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(a.output.getOperation()), options);
  if (failed(result) || result->loops.empty())
    return failure();
  if (llvm::any_of(fusible, [&](Operation *op) {
        return !result->fusedProducers.contains(op);
      })) {
    // Not what was asked: drop the loops, keep the untiled attention.
    for (LoopLikeOpInterface loop : llvm::reverse(result->loops))
      if (loop->use_empty())
        rewriter.eraseOp(loop);
    return failure();
  }
  for (OpResult old : a.output->getResults())
    rewriter.replaceAllUsesWith(old, result->replacements.lookup(old));
  // What is read after the attention, from the loop, which computes it
  // whole; the untiled ops between still read the old values until they go.
  for (Operation *view : a.lateViews)
    rewriter.moveOpAfter(view, result->loops.front());
  for (Operation *op : a.shared)
    for (OpResult old : op->getResults())
      if (Value whole = result->replacements.lookup(old))
        rewriter.replaceUsesWithIf(old, whole, [&](OpOperand &use) {
          return !a.between.contains(use.getOwner()) &&
                 !a.reshapes.contains(use.getOwner()) &&
                 use.getOwner() != a.scores.getOperation();
        });
  // The slices of the untiled ops that fusion went through stay in the
  // loop, unused.
  SmallVector<tensor::ExtractSliceOp> unused;
  result->loops.front()->walk([&](tensor::ExtractSliceOp slice) {
    if (slice.use_empty())
      unused.push_back(slice);
  });
  for (tensor::ExtractSliceOp slice : unused)
    rewriter.eraseOp(slice);
  // The untiled ops have no use left; nor, then, have the fills and empty
  // tensors that initialised them (the loop has copies of its own).
  llvm::SetVector<Operation *> dead(a.between.begin(), a.between.end());
  dead.insert(a.reshapes.begin(), a.reshapes.end());
  dead.insert(a.scores);
  dead.insert(a.output);
  for (bool progress = true; progress;) {
    progress = false;
    for (Operation *op : dead.takeVector()) {
      if (!op->use_empty()) {
        dead.insert(op);
        continue;
      }
      for (Value operand : op->getOperands())
        if (Operation *producer = operand.getDefiningOp();
            producer && isa<linalg::FillOp, tensor::EmptyOp>(producer))
          dead.insert(producer);
      dead.remove(op);
      rewriter.eraseOp(op);
      progress = true;
    }
  }
  return result->loops.front().getOperation();
}

/// Brings the attention's ops into forms that tiling takes (results indexed
/// by loop dimensions only) and finds the attention again; fails, with the
/// reason in `why`, where one remains that it cannot take.
LogicalResult prepareForTiling(RewriterBase &rewriter,
                               FailureOr<Attention> &attention,
                               linalg::LinalgOp output, std::string &why) {
  SmallVector<Operation *> inits = dropConstantResultDims(rewriter, *attention);
  if (!inits.empty()) {
    // A collapsed fill of an empty tensor is a fill of a smaller one, which
    // tiling fuses like the others.
    MLIRContext *ctx = rewriter.getContext();
    RewritePatternSet patterns(ctx);
    linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    SmallVector<Operation *> old;
    for (Operation *init : inits)
      old.push_back(init->getOperand(0).getDefiningOp());
    (void)applyOpPatternsGreedily(inits, std::move(patterns), config);
    // The whole-shaped fills and empty tensors the collapses read.
    while (!old.empty()) {
      Operation *op = old.pop_back_val();
      if (!op || !isa<linalg::FillOp, tensor::EmptyOp>(op) || !op->use_empty())
        continue;
      for (Value operand : op->getOperands())
        old.push_back(operand.getDefiningOp());
      rewriter.eraseOp(op);
    }
    bool softmax = false;
    attention = matchAttention(output, why, softmax);
    if (failed(attention))
      return failure();
  }
  for (Operation *op : attention->between)
    for (OpOperand &init : cast<linalg::LinalgOp>(op).getDpsInitsMutable())
      if (!cast<linalg::LinalgOp>(op)
               .getMatchingIndexingMap(&init)
               .isProjectedPermutation()) {
        why = "an op of the softmax writes its result through constant "
              "indices";
        return failure();
      }
  return success();
}

struct SummaTileAttentionPass
    : summa::impl::SummaTileAttentionBase<SummaTileAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    if (tileElements < 1) {
      emitError(getOperation()->getLoc())
          << "summa-tile-attention: tile-elements must be at least 1, got "
          << static_cast<int64_t>(tileElements);
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> products;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isContraction(op) && op.hasPureTensorSemantics())
        products.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // The products that a tiled attention erased (its Q·Kᵀ).
    llvm::SmallPtrSet<Operation *, 8> erased;
    SmallVector<Operation *> loops;
    for (linalg::LinalgOp output : llvm::reverse(products)) {
      if (erased.contains(output))
        continue;
      std::string why;
      bool softmax = false;
      FailureOr<Attention> attention = matchAttention(output, why, softmax);
      if (succeeded(attention) &&
          failed(prepareForTiling(rewriter, attention, output, why)))
        attention = failure();
      if (failed(attention)) {
        // Only a product that reads a softmax is worth a word.
        if (emitRemarks && softmax)
          output.emitRemark() << "attention not fused: " << why;
        continue;
      }
      int64_t rows = 0;
      FailureOr<SmallVector<int64_t>> sizes =
          tileSizes(output, tileElements, rows);
      Location loc = output.getLoc();
      size_t between = attention->between.size();
      Operation *scores = attention->scores;
      FailureOr<Operation *> loop =
          failed(sizes) ? FailureOr<Operation *>(failure())
                        : tileAttention(rewriter, *attention, *sizes);
      if (failed(loop)) {
        if (emitRemarks)
          emitRemark(loc) << "attention not fused: its scores could not be "
                             "computed a block of rows at a time";
        continue;
      }
      erased.insert(scores);
      loops.push_back(*loop);
      if (emitRemarks)
        emitRemark(loc) << "fused attention: Q·Kᵀ, " << between
                        << " ops between and this product tiled by one "
                           "head and "
                        << rows << " query rows at a time";
    }
    if (loops.empty())
      return;
    // Tile-and-fuse fuses a producer once per use inside the loop (the
    // masked scores feed both the row maximum and the subtraction): the
    // copies compute the same slices of the same values, and are one again.
    DominanceInfo dominance;
    for (Operation *loop : loops)
      eliminateCommonSubExpressions(rewriter, dominance, loop);
    // The fused fills' destinations are slices of the whole scores' empty
    // tensor: made empty tensors of the slice's size, so that bufferization
    // allocates one block of scores, not all of them. Only the loops' slices
    // are visited (the rest of the function is as it was).
    SmallVector<Operation *> slices;
    llvm::SetVector<Operation *> wholes;
    for (Operation *loop : loops)
      loop->walk([&](tensor::ExtractSliceOp slice) {
        if (auto whole = slice.getSource().getDefiningOp<tensor::EmptyOp>()) {
          slices.push_back(slice);
          wholes.insert(whole);
        }
      });
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (failed(applyOpPatternsGreedily(slices, std::move(patterns), config)))
      return signalPassFailure();
    for (Operation *whole : wholes)
      if (whole->use_empty())
        rewriter.eraseOp(whole);
  }
};

} // namespace
