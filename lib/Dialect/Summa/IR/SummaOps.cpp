//===- SummaOps.cpp - summa operations --------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Verifiers, folders and canonicalizations of the summa operations.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"
#include <climits>

using namespace mlir;
using namespace mlir::summa;

namespace mlir::summa {
ParseResult parseGridAxes(OpAsmParser &parser, DenseI32ArrayAttr &axes);
void printGridAxes(OpAsmPrinter &printer, Operation *op,
                   DenseI32ArrayAttr axes);
} // namespace mlir::summa

#define GET_OP_CLASSES
#include "summa/Dialect/Summa/IR/SummaOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

GridOp mlir::summa::lookupGrid(Operation *from, FlatSymbolRefAttr symbol) {
  return dyn_cast_or_null<GridOp>(
      SymbolTable::lookupNearestSymbolFrom(from, symbol));
}

MatmulLayouts mlir::summa::getMatmulLayouts(MLIRContext *context,
                                            FlatSymbolRefAttr grid,
                                            MatmulForm form, int64_t groupsM,
                                            int64_t groupsN, int64_t groupsK) {
  DimLayout tokens({GridAxis::depth, GridAxis::row});
  DimLayout rows({GridAxis::row}), cols({GridAxis::col});
  auto make = [&](DimLayout a, DimLayout b) {
    return LayoutAttr::get(context, grid, ArrayRef<DimLayout>{a, b});
  };
  auto grouped = [](DimLayout d, int64_t groups) {
    d.groups = groups;
    return d;
  };
  switch (form) {
  case MatmulForm::ab: // [M, K] · [K, N] -> [M, N]
    return {make(grouped(tokens, groupsM), grouped(cols, groupsK)),
            make(grouped(rows, groupsK), grouped(cols, groupsN)),
            make(grouped(tokens, groupsM), grouped(cols, groupsN))};
  case MatmulForm::abt: // [M, K] · [N, K]ᵀ -> [M, N]
    return {make(grouped(tokens, groupsM), grouped(cols, groupsK)),
            make(grouped(rows, groupsN), grouped(cols, groupsK)),
            make(grouped(tokens, groupsM), grouped(cols, groupsN))};
  case MatmulForm::atb: // [K, M]ᵀ · [K, N] -> [M, N]
    return {make(grouped(tokens, groupsK), grouped(cols, groupsM)),
            make(grouped(tokens, groupsK), grouped(cols, groupsN)),
            make(grouped(rows, groupsM), grouped(cols, groupsN))};
  }
  llvm_unreachable("unknown matmul form");
}

std::optional<MatmulForm> mlir::summa::getMatmulForm(ArrayRef<AffineMap> maps) {
  if (maps.size() != 3 || llvm::any_of(maps, [](AffineMap m) {
        return m.getNumDims() != 3 || m.getNumResults() != 2 ||
               !m.isProjectedPermutation();
      }))
    return std::nullopt;
  auto dims = [](AffineMap m) {
    return std::make_pair(m.getDimPosition(0), m.getDimPosition(1));
  };
  using P = std::pair<unsigned, unsigned>;
  if (dims(maps[2]) != P{0, 1})
    return std::nullopt;
  P a = dims(maps[0]), b = dims(maps[1]);
  if (a == P{0, 2} && b == P{2, 1})
    return MatmulForm::ab;
  if (a == P{0, 2} && b == P{1, 2})
    return MatmulForm::abt;
  if (a == P{2, 0} && b == P{2, 1})
    return MatmulForm::atb;
  return std::nullopt;
}

int64_t mlir::summa::getSplitFactor(GridOp grid, ArrayRef<GridAxis> axes) {
  int64_t factor = 1;
  for (GridAxis a : axes)
    factor *= grid.getAxisSize(a);
  return factor;
}

std::optional<SmallVector<DimLayout>>
mlir::summa::spreadSplit(GridOp grid, ArrayRef<int64_t> sizes,
                         const DimLayout &split) {
  if (split.groups != 1)
    return std::nullopt;
  SmallVector<DimLayout> spread(sizes.size());
  size_t next = 0;
  for (auto [d, whole] : llvm::enumerate(sizes)) {
    if (next == split.axes.size())
      break;
    int64_t size = whole;
    while (next < split.axes.size() &&
           size % grid.getAxisSize(split.axes[next]) == 0) {
      size /= grid.getAxisSize(split.axes[next]);
      spread[d].axes.push_back(split.axes[next++]);
    }
    if (size != 1)
      break;
  }
  if (next != split.axes.size())
    return std::nullopt;
  return spread;
}

FailureOr<SmallVector<int64_t>>
mlir::summa::getLocalShape(ArrayRef<int64_t> globalShape, LayoutAttr layout,
                           GridOp grid) {
  if (layout.getRank() != globalShape.size())
    return failure();
  SmallVector<int64_t> local;
  for (auto [dim, size] : llvm::enumerate(globalShape)) {
    int64_t factor = getSplitFactor(grid, layout.getDimSplit(dim));
    // A factored dimension splits each of its groups, evenly.
    int64_t groups = layout.getDimGroups(dim);
    if (ShapedType::isDynamic(size) ||
        (groups != 1 && size % (factor * groups) != 0))
      return failure();
    local.push_back(llvm::divideCeil(size, factor));
  }
  return local;
}

bool mlir::summa::isUnevenSplit(ArrayRef<int64_t> globalShape,
                                LayoutAttr layout, GridOp grid, unsigned dim) {
  int64_t size = globalShape[dim];
  return !ShapedType::isDynamic(size) &&
         size % getSplitFactor(grid, layout.getDimSplit(dim)) != 0;
}

static GridOp verifyGridSymbol(Operation *op, FlatSymbolRefAttr symbol,
                               SymbolTableCollection &symbolTable) {
  auto grid = symbolTable.lookupNearestSymbolFrom<GridOp>(op, symbol);
  if (!grid)
    op->emitOpError() << "'@" << symbol.getValue()
                      << "' does not name a summa.grid";
  return grid;
}

//===----------------------------------------------------------------------===//
// GridOp
//===----------------------------------------------------------------------===//

LogicalResult GridOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (shape.size() != 3)
    return emitOpError() << "shape must be [q, q, d], got " << shape.size()
                         << " dimensions";
  for (int64_t s : shape)
    if (s <= 0)
      return emitOpError() << "grid sizes must be positive, got [" << shape[0]
                           << ", " << shape[1] << ", " << shape[2] << "]";
  if (shape[0] != shape[1])
    return emitOpError() << "the SUMMA grid must be square (q x q), got "
                         << shape[0] << " x " << shape[1];
  // Ranks are MPI ranks: int, and every product of the sizes must fit.
  int64_t ranks = 1;
  for (int64_t s : shape)
    if (llvm::MulOverflow(ranks, s, ranks) || ranks > INT32_MAX)
      return emitOpError() << "grid [" << shape[0] << ", " << shape[1] << ", "
                           << shape[2] << "] has more than " << INT32_MAX
                           << " ranks (the most MPI can address)";
  return success();
}

std::string mlir::summa::gridShapeError(ArrayRef<int64_t> shape) {
  if (shape.size() != 3 || shape[0] != shape[1] ||
      llvm::any_of(shape, [](int64_t s) { return s <= 0; }))
    return "expected q,q,d with q >= 1 and d >= 1";
  int64_t ranks = 1;
  for (int64_t s : shape)
    if (llvm::MulOverflow(ranks, s, ranks) || ranks > INT32_MAX)
      return "more than " + std::to_string(INT32_MAX) +
             " ranks (the most MPI can address)";
  return "";
}

int64_t GridOp::getGroupSize(ArrayRef<int32_t> axes) {
  int64_t size = 1;
  for (int32_t a : axes)
    size *= getShape()[a];
  return size;
}

//===----------------------------------------------------------------------===//
// CoordOp
//===----------------------------------------------------------------------===//

LogicalResult CoordOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return success(verifyGridSymbol(*this, getGridAttr(), symbolTable) !=
                 nullptr);
}

OpFoldResult CoordOp::fold(FoldAdaptor) {
  GridOp grid = lookupGrid(*this, getGridAttr());
  if (grid && grid.getAxisSize(getAxis()) == 1)
    return IntegerAttr::get(IndexType::get(getContext()), 0);
  return {};
}

//===----------------------------------------------------------------------===//
// RelayoutOp
//===----------------------------------------------------------------------===//

LogicalResult RelayoutOp::verify() {
  auto type = cast<RankedTensorType>(getInput().getType());
  if (getLayout().getRank() != static_cast<unsigned>(type.getRank()))
    return emitOpError() << "layout " << getLayout() << " has rank "
                         << getLayout().getRank() << " but the tensor " << type
                         << " has rank " << type.getRank();
  return success();
}

LogicalResult RelayoutOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return success(verifyGridSymbol(*this, getLayout().getGrid(), symbolTable) !=
                 nullptr);
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  auto lhs = getLhs().getType(), rhs = getRhs().getType(),
       acc = getAcc().getType();
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || acc.getRank() != 2)
    return emitOpError() << "operands must be matrices (rank 2)";
  int64_t m = 0, n = 0, kl = 0, kr = 0;
  switch (getForm()) {
  case MatmulForm::ab:
    m = lhs.getDimSize(0), kl = lhs.getDimSize(1);
    kr = rhs.getDimSize(0), n = rhs.getDimSize(1);
    break;
  case MatmulForm::abt:
    m = lhs.getDimSize(0), kl = lhs.getDimSize(1);
    n = rhs.getDimSize(0), kr = rhs.getDimSize(1);
    break;
  case MatmulForm::atb:
    kl = lhs.getDimSize(0), m = lhs.getDimSize(1);
    kr = rhs.getDimSize(0), n = rhs.getDimSize(1);
    break;
  }
  if (kl != kr)
    return emitOpError() << "contraction sizes differ: " << kl << " (lhs) vs "
                         << kr << " (rhs) for form "
                         << stringifyMatmulForm(getForm());
  if (acc.getDimSize(0) != m || acc.getDimSize(1) != n)
    return emitOpError() << "accumulator must be " << m << "x" << n
                         << " for form " << stringifyMatmulForm(getForm())
                         << ", got " << acc.getDimSize(0) << "x"
                         << acc.getDimSize(1);
  auto result = getResult().getType();
  std::optional<uint64_t> scatter = getDepthScatter();
  if (!scatter) {
    if (result != acc)
      return emitOpError() << "result type " << result
                           << " must equal the accumulator's " << acc;
    return success();
  }
  if (getForm() != MatmulForm::atb)
    return emitOpError() << "depth_scatter needs form atb (only its product "
                            "is summed over depth)";
  if (*scatter > 1)
    return emitOpError() << "depth_scatter " << *scatter
                         << " is not a dimension of the rank-2 result";
  for (int64_t d = 0; d < 2; ++d)
    if (d != static_cast<int64_t>(*scatter) &&
        result.getDimSize(d) != acc.getDimSize(d))
      return emitOpError() << "result dimension " << d << " ("
                           << result.getDimSize(d)
                           << ") must equal the accumulator's ("
                           << acc.getDimSize(d) << ")";
  if (result.getElementType() != acc.getElementType())
    return emitOpError() << "result and accumulator element types differ";
  return success();
}

LogicalResult MatmulOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  GridOp grid = verifyGridSymbol(*this, getGridAttr(), symbolTable);
  if (!grid)
    return failure();
  if (std::optional<uint64_t> scatter = getDepthScatter()) {
    int64_t whole = getAcc().getType().getDimSize(*scatter);
    int64_t part = getResult().getType().getDimSize(*scatter);
    if (part * grid.getD() != whole)
      return emitOpError() << "depth_scatter: result dimension " << *scatter
                           << " (" << part << ") must be the accumulator's ("
                           << whole << ") divided by the grid's depth "
                           << grid.getD();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives: shared pieces
//===----------------------------------------------------------------------===//

static LogicalResult verifyAxes(Operation *op, ArrayRef<int32_t> axes) {
  if (axes.empty())
    return op->emitOpError() << "needs at least one grid axis";
  llvm::SmallBitVector seen(3);
  for (int32_t a : axes) {
    if (seen.test(a))
      return op->emitOpError()
             << "grid axis '" << getAxisName(static_cast<GridAxis>(a))
             << "' is listed twice";
    seen.set(a);
  }
  return success();
}

/// Checks the tensor / memref forms of a collective that keeps its shape.
static LogicalResult verifyInPlaceForm(Operation *op, Value input,
                                       Value result) {
  if (isa<MemRefType>(input.getType())) {
    if (result)
      return op->emitOpError()
             << "works in place on a memref and must not have a result";
    return success();
  }
  if (!result)
    return op->emitOpError() << "on a tensor must have a result";
  if (result.getType() != input.getType())
    return op->emitOpError()
           << "result type " << result.getType()
           << " must equal the input type " << input.getType();
  return success();
}

/// Checks the forms of all_gather and reduce_scatter, apart from the size
/// of the gathered dimension (which needs the grid).
static LogicalResult verifyReshapingForm(Operation *op, Value input,
                                         Value output, Value result,
                                         int64_t dim) {
  auto inputType = cast<ShapedType>(input.getType());
  if (dim >= inputType.getRank())
    return op->emitOpError()
           << "dimension " << dim << " is out of range for rank "
           << inputType.getRank();
  ShapedType outType;
  if (isa<MemRefType>(inputType)) {
    if (result)
      return op->emitOpError() << "on a memref must not have a result";
    if (!output)
      return op->emitOpError() << "on a memref needs an `into` buffer";
    outType = cast<ShapedType>(output.getType());
  } else {
    if (output)
      return op->emitOpError() << "on a tensor must not have an `into` buffer";
    if (!result)
      return op->emitOpError() << "on a tensor must have a result";
    outType = cast<ShapedType>(result.getType());
  }
  if (outType.getRank() != inputType.getRank() ||
      outType.getElementType() != inputType.getElementType())
    return op->emitOpError()
           << "result " << outType << " must have the rank and element type of "
           << inputType;
  for (int64_t d = 0; d < inputType.getRank(); ++d)
    if (d != dim && outType.getDimSize(d) != inputType.getDimSize(d))
      return op->emitOpError()
             << "result and input may differ only in dimension " << dim;
  return success();
}

/// Checks dimension `dim` of the gathered (`big`) and scattered (`small`)
/// shapes against the group size.
static LogicalResult verifyGroupDim(Operation *op, ShapedType small,
                                    ShapedType big, int64_t dim,
                                    int64_t group) {
  if (small.isDynamicDim(dim) || big.isDynamicDim(dim))
    return success();
  if (small.getDimSize(dim) * group != big.getDimSize(dim))
    return op->emitOpError()
           << "dimension " << dim << " must grow from " << small.getDimSize(dim)
           << " to " << small.getDimSize(dim) * group << " over a group of "
           << group << ", got " << big.getDimSize(dim);
  return success();
}

static void addBufferEffects(
    Operation *op, OpOperand &read, OpOperand *written,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!isa<MemRefType>(read.get().getType()))
    return;
  effects.emplace_back(MemoryEffects::Read::get(), &read,
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), written,
                       SideEffects::DefaultResource::get());
}

/// The size of the group of `op` (an op with `grid` and `axes`), or
/// std::nullopt when its grid cannot be found.
template <typename OpTy>
static std::optional<int64_t> getGroupSizeOf(OpTy op) {
  GridOp grid = lookupGrid(op, op.getGridAttr());
  if (!grid)
    return std::nullopt;
  return grid.getGroupSize(op.getAxes());
}

namespace {
/// A collective on memrefs over a group of one rank moves nothing: erase it
/// (in place) or turn it into a copy (all_gather / reduce_scatter).
template <typename OpTy>
struct EraseSingletonBufferCollective : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasBufferSemantics() || getGroupSizeOf(op) != 1)
      return failure();
    if constexpr (std::is_same_v<OpTy, AllGatherOp> ||
                  std::is_same_v<OpTy, ReduceScatterOp>)
      memref::CopyOp::create(rewriter, op.getLoc(), op.getInput(),
                             op.getOutput());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

template <typename OpTy>
static LogicalResult
foldSingletonCollective(OpTy op, SmallVectorImpl<OpFoldResult> &results) {
  if (op.hasBufferSemantics() || getGroupSizeOf(op) != 1)
    return failure();
  results.push_back(op.getInput());
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastOp, ReduceOp, AllReduceOp
//===----------------------------------------------------------------------===//

/// Verifies a constant root against the group size.
template <typename OpTy>
static LogicalResult verifyRoot(OpTy op, GridOp grid) {
  APInt root;
  if (!matchPattern(op.getRoot(), m_ConstantInt(&root)))
    return success();
  int64_t group = grid.getGroupSize(op.getAxes());
  if (root.getSExtValue() < 0 || root.getSExtValue() >= group)
    return op.emitOpError() << "root " << root.getSExtValue()
                            << " is outside the group of " << group << " ranks";
  return success();
}

/// What every collective on buffers or tensors folds to on a group of one.
#define SUMMA_DEFINE_COLLECTIVE_FOLDS(OpTy)                                    \
  LogicalResult OpTy::fold(FoldAdaptor,                                        \
                           SmallVectorImpl<OpFoldResult> &results) {           \
    return foldSingletonCollective(*this, results);                            \
  }                                                                            \
  void OpTy::getCanonicalizationPatterns(RewritePatternSet &results,           \
                                         MLIRContext *context) {               \
    results.add<EraseSingletonBufferCollective<OpTy>>(context);                \
  }

#define SUMMA_DEFINE_IN_PLACE_COLLECTIVE(OpTy, CHECK_ROOT)                     \
  LogicalResult OpTy::verify() {                                               \
    if (failed(verifyAxes(*this, getAxes())))                                  \
      return failure();                                                        \
    return verifyInPlaceForm(*this, getInput(), getResult());                  \
  }                                                                            \
  LogicalResult OpTy::verifySymbolUses(SymbolTableCollection &symbolTable) {   \
    GridOp grid = verifyGridSymbol(*this, getGridAttr(), symbolTable);         \
    if (!grid)                                                                 \
      return failure();                                                        \
    return CHECK_ROOT;                                                         \
  }                                                                            \
  void OpTy::getEffects(                                                       \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    addBufferEffects(*this, getInputMutable(), &getInputMutable(), effects);   \
  }                                                                            \
  SUMMA_DEFINE_COLLECTIVE_FOLDS(OpTy)

SUMMA_DEFINE_IN_PLACE_COLLECTIVE(BroadcastOp, verifyRoot(*this, grid))
SUMMA_DEFINE_IN_PLACE_COLLECTIVE(ReduceOp, verifyRoot(*this, grid))
SUMMA_DEFINE_IN_PLACE_COLLECTIVE(AllReduceOp, success())

//===----------------------------------------------------------------------===//
// AllGatherOp, ReduceScatterOp
//===----------------------------------------------------------------------===//

template <typename OpTy>
static ShapedType getOutType(OpTy op) {
  if (op.hasBufferSemantics())
    return cast<ShapedType>(op.getOutput().getType());
  return cast<ShapedType>(op.getResult().getType());
}

#define SUMMA_DEFINE_RESHAPING_COLLECTIVE(OpTy, SMALL, BIG)                    \
  LogicalResult OpTy::verify() {                                               \
    if (failed(verifyAxes(*this, getAxes())))                                  \
      return failure();                                                        \
    return verifyReshapingForm(*this, getInput(), getOutput(), getResult(),    \
                               getDim());                                      \
  }                                                                            \
  LogicalResult OpTy::verifySymbolUses(SymbolTableCollection &symbolTable) {   \
    GridOp grid = verifyGridSymbol(*this, getGridAttr(), symbolTable);         \
    if (!grid)                                                                 \
      return failure();                                                        \
    auto inType = cast<ShapedType>(getInput().getType());                      \
    auto outType = getOutType(*this);                                          \
    (void)inType;                                                              \
    (void)outType;                                                             \
    return verifyGroupDim(*this, SMALL, BIG, getDim(),                         \
                          grid.getGroupSize(getAxes()));                       \
  }                                                                            \
  void OpTy::getEffects(                                                       \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    if (hasBufferSemantics())                                                  \
      addBufferEffects(*this, getInputMutable(), &getOutputMutable()[0],       \
                       effects);                                               \
  }                                                                            \
  SUMMA_DEFINE_COLLECTIVE_FOLDS(OpTy)

SUMMA_DEFINE_RESHAPING_COLLECTIVE(AllGatherOp, inType, outType)
SUMMA_DEFINE_RESHAPING_COLLECTIVE(ReduceScatterOp, outType, inType)

//===----------------------------------------------------------------------===//
// AsyncBroadcastOp, AsyncReduceOp, WaitOp
//===----------------------------------------------------------------------===//

#define SUMMA_DEFINE_ASYNC_COLLECTIVE(OpTy)                                    \
  LogicalResult OpTy::verify() { return verifyAxes(*this, getAxes()); }        \
  LogicalResult OpTy::verifySymbolUses(SymbolTableCollection &symbolTable) {   \
    GridOp grid = verifyGridSymbol(*this, getGridAttr(), symbolTable);         \
    if (!grid)                                                                 \
      return failure();                                                        \
    return verifyRoot(*this, grid);                                            \
  }                                                                            \
  void OpTy::getEffects(                                                       \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    addBufferEffects(*this, getInputMutable(), &getInputMutable(), effects);   \
  }

SUMMA_DEFINE_ASYNC_COLLECTIVE(AsyncBroadcastOp)
SUMMA_DEFINE_ASYNC_COLLECTIVE(AsyncReduceOp)

/// The buffer the collective writes is not an operand of the wait: it may
/// write any memory, so that nothing that touches the buffer moves across.
void WaitOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}
