//===- Slice.cpp - the rules of slices, concatenation and pad ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// tensor.extract_slice, tensor.insert_slice, tensor.concat and tensor.pad:
// a split survives a slice taken in whole blocks or whole groups (layout);
// the local slice takes the tile's sizes and the offsets of the rank's
// groups (partition); the adjoint of a slice is its place in zeros, of an
// insert the slice of the result's, of a concatenation each input's slice
// (derivative); and in the planner's split model a split is kept where the
// dimension stays whole or is cut into pieces that P divides.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::oprules;

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

/// Static sizes and strides: the slices summa lays out. An offset may be a
/// value (a decode step's position in its KV cache); the dimension it cuts
/// is then whole on every rank (sliceSplit), so every rank takes the same
/// elements.
template <typename SliceOp>
static LogicalResult checkStaticSlice(SliceOp op, StringRef name) {
  if (ShapedType::isDynamicShape(op.getStaticSizes()) ||
      ShapedType::isDynamicShape(op.getStaticStrides()))
    return op.emitError() << name
                          << ": only static sizes and strides are supported "
                             "(this one has dynamic sizes or strides)";
  return success();
}

/// The split of a dimension of extent `full` (split as `whole` into
/// `parts` blocks) and of the elements offset, offset + stride, ... (`size`
/// of them) that a slice takes. A part that is not all of it keeps the
/// split if the dimension is factored into groups and the part is whole
/// groups (the fused Q/K/V projection sliced into Q, K and V), or if every
/// block holds its own elements of a strided slice through the whole
/// dimension (the stride divides the even blocks and the offset is below
/// the stride: each rank takes the same positions of its block, rotary's
/// x[..., ::2] and x[..., 1::2]); otherwise neither is split, and each rank
/// holds the slice's part of every tile it needs.
static std::pair<DimLayout, DimLayout> sliceSplit(DimLayout whole, int64_t full,
                                                  int64_t parts, int64_t offset,
                                                  int64_t size,
                                                  int64_t stride) {
  if (ShapedType::isDynamic(offset))
    return {DimLayout(), DimLayout()};
  if (offset == 0 && size == full && stride == 1)
    return {whole, whole};
  int64_t chunk = full / whole.groups;
  if (stride == 1 && whole.groups > 1 && offset % chunk == 0 &&
      size % chunk == 0) {
    DimLayout part = whole;
    part.groups = size / chunk;
    return {whole, part};
  }
  if (stride > 1 && whole.isSplit() && whole.groups == 1 && full % parts == 0 &&
      (full / parts) % stride == 0 && offset < stride && size == full / stride)
    return {whole, whole};
  return {DimLayout(), DimLayout()};
}

static LogicalResult visitExtractSlice(LayoutRuleState &s,
                                       tensor::ExtractSliceOp op) {
  if (failed(checkStaticSlice(op, "tensor.extract_slice")))
    return failure();
  RankedTensorType source = op.getSourceType();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  // Source dimension d of the result's dimension, for kept dimensions.
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (!dropped.test(d))
      kept.push_back(d);
  DimSplits splits(source.getRank());
  if (LayoutAttr in = s.lookup(op.getSource())) {
    splits = in.getDims();
  } else if (LayoutAttr out = s.lookup(op.getResult())) {
    for (auto [r, d] : llvm::enumerate(kept))
      splits[d] = out.getDimSplit(r);
  } else {
    return success();
  }
  DimSplits resultSplits(source.getRank());
  for (int64_t d = 0; d < source.getRank(); ++d) {
    if (dropped.test(d)) {
      splits[d] = resultSplits[d] = DimLayout();
      continue;
    }
    std::tie(splits[d], resultSplits[d]) = sliceSplit(
        splits[d], source.getDimSize(d),
        getSplitFactor(s.getGrid(), splits[d].axes), op.getStaticOffsets()[d],
        op.getStaticSizes()[d], op.getStaticStrides()[d]);
  }
  resultSplits = llvm::to_vector(
      llvm::map_range(kept, [&](int64_t d) { return resultSplits[d]; }));
  s.want(op.getSourceMutable(), s.make(splits));
  s.define(op->getResult(0), s.make(resultSplits));
  return success();
}

static LogicalResult visitInsertSlice(LayoutRuleState &s,
                                      tensor::InsertSliceOp op) {
  if (failed(checkStaticSlice(op, "tensor.insert_slice")))
    return failure();
  RankedTensorType dest = op.getDestType();
  if (op.getSourceType().getRank() != dest.getRank())
    return op.emitError() << "tensor.insert_slice: only slices of the "
                             "destination's rank are supported";
  LayoutAttr layout = s.lookup(op.getDest());
  if (!layout)
    layout = s.lookup(op.getResult());
  if (!layout) {
    // The source's groups count the source's elements, not the
    // destination's: from the source, only its splits; the destination's
    // groups are its own (the pieces it is assembled from: the adjoint of
    // a fused Q/K/V projection from those of Q, K and V).
    layout = s.lookup(op.getSource());
    if (!layout)
      return success();
    DimSplits splits = layout.getDims();
    for (auto [d, dim] : llvm::enumerate(splits))
      dim.groups = s.hintedGroups(op.getResult(), d, dim.axes);
    layout = s.make(splits);
  }
  DimSplits splits = layout.getDims(), sourceSplits = splits;
  for (int64_t d = 0; d < dest.getRank(); ++d)
    std::tie(splits[d], sourceSplits[d]) = sliceSplit(
        splits[d], dest.getDimSize(d),
        getSplitFactor(s.getGrid(), splits[d].axes), op.getStaticOffsets()[d],
        op.getStaticSizes()[d], op.getStaticStrides()[d]);
  LayoutAttr whole = s.make(splits);
  s.want(op.getSourceMutable(), s.make(sourceSplits));
  s.want(op.getDestMutable(), whole);
  s.define(op->getResult(0), whole);
  return success();
}

static LogicalResult visitConcat(LayoutRuleState &s, tensor::ConcatOp op) {
  int64_t dim = op.getDim();
  auto sizeOf = [&](Value v) {
    return cast<RankedTensorType>(v.getType()).getDimSize(dim);
  };
  // The concatenated dimension keeps its split when every input is whole
  // groups of one chunk size (a factored layout, see collectChunkHints): the
  // result's groups are the inputs' groups one after another, and each
  // rank's tile is the concatenation of its tiles.
  LayoutAttr layout = s.lookup(op.getResult());
  std::optional<DimLayout> along; // the result's concatenated dimension
  if (layout) {
    DimLayout d = layout.getDim(dim);
    int64_t chunk = sizeOf(op.getResult()) / d.groups;
    if (d.isSplit() && llvm::all_of(op.getInputs(), [&](Value in) {
          return sizeOf(in) % chunk == 0;
        }))
      along = d;
  } else {
    SmallVector<LayoutAttr> inputs;
    for (Value input : op.getInputs())
      if (LayoutAttr in = s.lookup(input))
        inputs.push_back(in);
    if (inputs.empty())
      return success();
    layout = inputs.front();
    if (inputs.size() == op.getInputs().size()) {
      DimLayout first = inputs.front().getDim(dim);
      int64_t chunk = sizeOf(op.getInputs()[0]) / first.groups;
      bool same = first.isSplit();
      for (auto [input, in] : llvm::zip(op.getInputs(), inputs)) {
        DimLayout d = in.getDim(dim);
        same &= d.axes == first.axes && sizeOf(input) / d.groups == chunk;
      }
      if (same)
        along = DimLayout(first.axes, sizeOf(op.getResult()) / chunk);
    }
  }
  DimSplits splits = layout.getDims();
  splits[dim] = DimLayout();
  if (!along) {
    LayoutAttr whole = s.make(splits);
    for (OpOperand &input : op->getOpOperands())
      s.want(input, whole);
    s.define(op->getResult(0), whole);
    return success();
  }
  int64_t chunk = sizeOf(op.getResult()) / along->groups;
  for (OpOperand &input : op->getOpOperands()) {
    splits[dim] = DimLayout(along->axes, sizeOf(input.get()) / chunk);
    s.want(input, s.make(splits));
  }
  splits[dim] = *along;
  s.define(op->getResult(0), s.make(splits));
  return success();
}

static LogicalResult visitPad(LayoutRuleState &s, tensor::PadOp op) {
  LayoutAttr layout = s.lookup(op.getSource());
  if (!layout)
    layout = s.lookup(op.getResult());
  if (!layout)
    return success();
  if (ShapedType::isDynamicShape(op.getStaticLow()) ||
      ShapedType::isDynamicShape(op.getStaticHigh()))
    return op.emitError() << "tensor.pad: only static padding is supported";
  DimSplits splits = layout.getDims();
  for (unsigned d = 0; d < splits.size(); ++d)
    if (op.getStaticLow()[d] != 0 || op.getStaticHigh()[d] != 0)
      splits[d] = DimLayout();
  LayoutAttr padded = s.make(splits);
  s.want(op.getSourceMutable(), padded);
  s.define(op->getResult(0), padded);
  return success();
}

//===----------------------------------------------------------------------===//
// Partition
//===----------------------------------------------------------------------===//

static LogicalResult partitionExtractSlice(PartitionState &s,
                                           tensor::ExtractSliceOp op) {
  if (failed(s.localizeResults(op)))
    return failure();
  // Split dimensions are taken whole, or whole groups of a factored one
  // (summa-assign-layouts made sure of it): their size becomes the tile's;
  // dropped dimensions stay 1.
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<int64_t> sizes;
  ArrayRef<int64_t> resultShape = op.getResultType().getShape();
  for (int64_t d = 0, r = 0; d < op.getSourceType().getRank(); ++d)
    sizes.push_back(dropped.test(d) ? 1 : resultShape[r++]);
  op.setStaticSizes(sizes);
  op.setStaticOffsets(s.localOffsets(op.getStaticOffsets(), op.getSource()));
  return success();
}

static LogicalResult partitionInsertSlice(PartitionState &s,
                                          tensor::InsertSliceOp op) {
  if (failed(s.localizeResults(op)))
    return failure();
  op.setStaticSizes(op.getSourceType().getShape());
  op.setStaticOffsets(s.localOffsets(op.getStaticOffsets(), op.getDest()));
  return success();
}

//===----------------------------------------------------------------------===//
// Derivative
//===----------------------------------------------------------------------===//

/// `source` inserted into `dest` at the offsets, sizes and strides of the
/// slice op `op`.
template <typename SliceOp>
static Value insertAt(OpBuilder &b, Location loc, Value source, Value dest,
                      SliceOp op) {
  return tensor::InsertSliceOp::create(b, loc, source, dest,
                                       op.getMixedOffsets(), op.getMixedSizes(),
                                       op.getMixedStrides());
}

/// The slice's adjoint in place, zeros around it (the Q, K and V slices of
/// a fused projection add up to its whole adjoint).
static LogicalResult differentiateExtractSlice(DerivativeState &s,
                                               tensor::ExtractSliceOp op) {
  Location loc = op->getLoc();
  s.accumulate(loc, op.getSource(),
               insertAt(s.getBuilder(), loc, s.getAdjoint(op.getResult()),
                        s.zeros(loc, op.getSourceType()), op));
  return success();
}

/// The source's adjoint is the slice of the result's; the destination's is
/// the result's with the slice zeroed (it was overwritten).
static LogicalResult differentiateInsertSlice(DerivativeState &s,
                                              tensor::InsertSliceOp op) {
  OpBuilder &b = s.getBuilder();
  Location loc = op->getLoc();
  Value dR = s.getAdjoint(op.getResult());
  if (s.isActive(op.getSource()))
    s.accumulate(loc, op.getSource(),
                 tensor::ExtractSliceOp::create(
                     b, loc, op.getSourceType(), dR, op.getMixedOffsets(),
                     op.getMixedSizes(), op.getMixedStrides()));
  if (s.isActive(op.getDest()))
    s.accumulate(loc, op.getDest(),
                 insertAt(b, loc, s.zeros(loc, op.getSourceType()), dR, op));
  return success();
}

/// The source's adjoint is the result's without its padding: the slice at
/// the low padding, of the source's shape. The padding value must be one
/// value for every position (a constant, as torch's F.pad writes); one that
/// a parameter reaches is a value read inside the body, which
/// summa-differentiate refuses before any rule runs.
static LogicalResult differentiatePad(DerivativeState &s, tensor::PadOp op) {
  if (!op.getConstantPaddingValue())
    return op.emitError() << "summa-differentiate: tensor.pad: only a "
                             "padding value that is the same at every "
                             "position has a derivative";
  if (ShapedType::isDynamicShape(op.getStaticLow()) ||
      ShapedType::isDynamicShape(op.getStaticHigh()))
    return op.emitError()
           << "summa-differentiate: tensor.pad: only static padding has a "
              "derivative";
  if (!s.isActive(op.getSource()))
    return success();
  OpBuilder &b = s.getBuilder();
  Location loc = op->getLoc();
  RankedTensorType source = op.getSourceType();
  SmallVector<OpFoldResult> strides(source.getRank(), b.getIndexAttr(1));
  s.accumulate(
      loc, op.getSource(),
      tensor::ExtractSliceOp::create(
          b, loc, source, s.getAdjoint(op.getResult()), op.getMixedLowPad(),
          getAsIndexOpFoldResult(b.getContext(), source.getShape()), strides));
  return success();
}

/// Each input's adjoint is its slice of the result's (Llama's rotate_half
/// concatenates the two halves of a head).
static LogicalResult differentiateConcat(DerivativeState &s,
                                         tensor::ConcatOp op) {
  OpBuilder &b = s.getBuilder();
  Location loc = op->getLoc();
  Value dR = s.getAdjoint(op.getResult());
  int64_t dim = op.getDim(), offset = 0;
  for (Value input : op.getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.isDynamicDim(dim))
      return op->emitError()
             << "summa-differentiate: tensor.concat of a dynamic size";
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t size : type.getShape())
      sizes.push_back(b.getIndexAttr(size));
    offsets[dim] = b.getIndexAttr(offset);
    offset += type.getDimSize(dim);
    if (!s.isActive(input))
      continue;
    s.accumulate(loc, input,
                 tensor::ExtractSliceOp::create(b, loc, type, dR, offsets,
                                                sizes, strides));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Split model
//===----------------------------------------------------------------------===//

static LogicalResult splitExtractSlice(SplitModelState &s,
                                       tensor::ExtractSliceOp op) {
  int split = s.getSplit(op.getSource());
  if (split == SplitModelState::kPartial) {
    s.setPartial(op.getResult()); // a slice of a partial sum
    return success();
  }
  if (split < 0)
    return success();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  int64_t whole = op.getSourceType().getDimSize(split);
  bool isWhole = op.getStaticOffsets()[split] == 0 &&
                 op.getStaticSizes()[split] == whole &&
                 op.getStaticStrides()[split] == 1;
  if (dropped.test(split) || (!isWhole && s.getOuter(op.getSource()) != 1) ||
      !s.keepsSplit(op.getStaticOffsets()[split], op.getStaticSizes()[split],
                    op.getStaticStrides()[split], whole))
    return s.replicate(op);
  int kept = 0;
  for (int d = 0; d < split; ++d)
    kept += dropped.test(d) ? 0 : 1;
  return s.setSplit(op.getResult(), kept, s.getOuter(op.getSource()));
}

static LogicalResult splitInsertSlice(SplitModelState &s,
                                      tensor::InsertSliceOp op) {
  Value source = op.getSource(), dest = op.getDest();
  if (s.isPartial(source) && s.isPartial(dest)) {
    s.setPartial(op.getResult());
    return success();
  }
  s.materialize(source);
  s.materialize(dest);
  int ss = s.getSplit(source), sd = s.getSplit(dest);
  // The source's split as a dimension of the destination.
  llvm::SmallBitVector dropped = op.getDroppedDims();
  int sourceAsDest = -1;
  for (int d = 0, kept = 0; d < op.getDestType().getRank() && ss >= 0; ++d) {
    if (dropped.test(d))
      continue;
    if (kept++ == ss)
      sourceAsDest = d;
  }
  int split = sd >= 0 ? sd : sourceAsDest;
  if (split < 0)
    return success();
  if ((ss >= 0 && sourceAsDest != split) || s.getOuter(source) != 1 ||
      s.getOuter(dest) != 1 ||
      !s.keepsSplit(op.getStaticOffsets()[split], op.getStaticSizes()[split],
                    op.getStaticStrides()[split],
                    op.getDestType().getDimSize(split)))
    return s.replicate(op);
  return s.setSplit(op.getResult(), split, 1);
}

static LogicalResult splitConcat(SplitModelState &s, tensor::ConcatOp op) {
  for (Value v : op.getInputs())
    s.materialize(v);
  int split = -1;
  int64_t outer = 1;
  for (Value v : op.getInputs()) {
    int sv = s.getSplit(v);
    if (sv < 0)
      continue;
    if (split >= 0 && (split != sv || outer != s.getOuter(v)))
      return s.replicate(op);
    split = sv;
    outer = s.getOuter(v);
  }
  if (split < 0)
    return success();
  // Along the concatenated dimension each piece must be split evenly.
  if (split == static_cast<int>(op.getDim()))
    for (Value v : op.getInputs())
      if (s.getSplit(v) != split || outer != 1 ||
          !s.divisible(v.getType(), split))
        return s.replicate(op);
  return s.setSplit(op.getResult(), split, outer);
}

static LogicalResult splitPad(SplitModelState &s, tensor::PadOp op) {
  s.materialize(op.getSource());
  int split = s.getSplit(op.getSource());
  if (split < 0)
    return success();
  if (op.getStaticLow()[split] != 0 || op.getStaticHigh()[split] != 0)
    return s.replicate(op);
  return s.setSplit(op.getResult(), split, s.getOuter(op.getSource()));
}

//===----------------------------------------------------------------------===//
// Dimension classes
//===----------------------------------------------------------------------===//

/// A slice's kept dimensions index its source's; a dimension it cuts is cut
/// into the chunk of its offset and size (unit strides only).
static void relateExtractSlice(DimClassState &s, tensor::ExtractSliceOp op) {
  if (!op.hasUnitStride())
    return;
  llvm::SmallBitVector dropped = op.getDroppedDims();
  for (int64_t d = 0, r = 0; d < op.getSourceType().getRank(); ++d) {
    int64_t whole = op.getSourceType().getDimSize(d);
    if (ShapedType::isDynamic(op.getStaticOffsets()[d])) {
      r += dropped.test(d) ? 0 : 1;
      continue; // a position: nothing relates the two
    }
    int64_t chunk = DimClassState::chunkOf(whole, op.getStaticOffsets()[d],
                                           op.getStaticSizes()[d]);
    if (chunk)
      s.addChunk(op.getSource(), d, chunk);
    else if (!dropped.test(d) && whole > 1)
      s.unite(op.getSource(), d, op.getResult(), r);
    if (!dropped.test(d))
      ++r;
  }
}

/// The result's dimensions index the destination's; those the insertion
/// cuts are cut into its chunk.
static void relateInsertSlice(DimClassState &s, tensor::InsertSliceOp op) {
  if (!op.hasUnitStride())
    return;
  RankedTensorType dest = op.getDestType();
  for (int64_t d = 0; d < dest.getRank(); ++d) {
    if (dest.getDimSize(d) <= 1 ||
        ShapedType::isDynamic(op.getStaticOffsets()[d]))
      continue;
    s.unite(op.getDest(), d, op.getResult(), d);
    if (int64_t chunk =
            DimClassState::chunkOf(dest.getDimSize(d), op.getStaticOffsets()[d],
                                   op.getStaticSizes()[d]))
      s.addChunk(op.getResult(), d, chunk);
  }
}

/// The dimensions not concatenated index the result's; the concatenated
/// one is cut into the chunks of the inputs.
static void relateConcat(DimClassState &s, tensor::ConcatOp op) {
  int64_t dim = op.getDim(), offset = 0;
  RankedTensorType type = op.getResultType();
  for (Value input : op.getInputs()) {
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != dim && type.getDimSize(d) > 1)
        s.unite(input, d, op.getResult(), d);
    int64_t size = DimClassState::dimSize(input, dim);
    if (int64_t chunk =
            DimClassState::chunkOf(type.getDimSize(dim), offset, size))
      s.addChunk(op.getResult(), dim, chunk);
    offset += size;
  }
}

/// A slice moves a part of its source; a rank-reducing one drops
/// dimensions.
static std::optional<DataMove> sliceMove(tensor::ExtractSliceOp op) {
  DataMove move;
  move.source = &op.getSourceMutable();
  move.slices = true;
  if (op.getSourceType().getRank() == op.getResultType().getRank())
    move.sourceDims = sameDims(op.getResultType());
  else
    move.reshapes = true;
  return move;
}

/// tensor.pad and tensor.concat write their result and read their inputs.
template <typename Op>
static LocalWork copyAllWork(Op op, function_ref<int64_t(Value)> bytesOf,
                             int64_t) {
  LocalWork work;
  work.bytes = tensorBytes(op->getResult(0), bytesOf);
  for (Value v : op->getOperands())
    work.bytes += tensorBytes(v, bytesOf);
  return work;
}

/// tensor.insert_slice reads its source and writes it into the destination.
static LocalWork insertSliceWork(tensor::InsertSliceOp op,
                                 function_ref<int64_t(Value)> bytesOf,
                                 int64_t) {
  LocalWork work;
  work.bytes = 2 * tensorBytes(op.getSource(), bytesOf);
  return work;
}

void oprules::registerSliceRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<
        LayoutModel<tensor::ExtractSliceOp, visitExtractSlice>,
        PartitionModel<tensor::ExtractSliceOp, partitionExtractSlice>,
        DerivativeModel<tensor::ExtractSliceOp, differentiateExtractSlice>,
        SplitCostModel<tensor::ExtractSliceOp, splitExtractSlice>,
        DimClassModel<tensor::ExtractSliceOp, relateExtractSlice>,
        DataMoveModel<tensor::ExtractSliceOp, sliceMove>>(*ctx);
    tensor::InsertSliceOp::attachInterface<
        LayoutModel<tensor::InsertSliceOp, visitInsertSlice>,
        PartitionModel<tensor::InsertSliceOp, partitionInsertSlice>,
        DerivativeModel<tensor::InsertSliceOp, differentiateInsertSlice>,
        SplitCostModel<tensor::InsertSliceOp, splitInsertSlice>,
        DimClassModel<tensor::InsertSliceOp, relateInsertSlice>,
        LocalWorkModel<tensor::InsertSliceOp, insertSliceWork>>(*ctx);
    tensor::ConcatOp::attachInterface<
        LayoutModel<tensor::ConcatOp, visitConcat>,
        PartitionModel<tensor::ConcatOp, localizeOnly<tensor::ConcatOp>>,
        DerivativeModel<tensor::ConcatOp, differentiateConcat>,
        SplitCostModel<tensor::ConcatOp, splitConcat>,
        DimClassModel<tensor::ConcatOp, relateConcat>,
        LocalWorkModel<tensor::ConcatOp, copyAllWork<tensor::ConcatOp>>>(*ctx);
    tensor::PadOp::attachInterface<
        LayoutModel<tensor::PadOp, visitPad>,
        PartitionModel<tensor::PadOp, localizeOnly<tensor::PadOp>>,
        DerivativeModel<tensor::PadOp, differentiatePad>,
        SplitCostModel<tensor::PadOp, splitPad>,
        LocalWorkModel<tensor::PadOp, copyAllWork<tensor::PadOp>>>(*ctx);
  });
}
