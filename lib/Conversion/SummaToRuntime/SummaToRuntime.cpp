//===- SummaToRuntime.cpp - summa ops to runtime calls ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements convert-summa-to-runtime: bufferized collectives and local
// GEMMs become calls of the runtime C ABI (see RuntimeABI.cpp), one
// conversion pattern per op, after a walk that reports each op the runtime
// cannot take at the op. A buffer is passed as its aligned pointer (index)
// and element offset.
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"

#include "GemmOperands.h"
#include "RuntimeABI.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

namespace mlir::summa {
#define GEN_PASS_DEF_CONVERTSUMMATORUNTIME
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

Value i64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}
Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// The runtime's bit mask of grid axes.
int64_t axesMask(ArrayRef<int32_t> axes) {
  int64_t mask = 0;
  for (int32_t a : axes)
    mask |= int64_t(1) << a;
  return mask;
}

/// Checks that `value` is a dense row-major buffer of an element type the
/// runtime knows; returns the type code.
FailureOr<int32_t> checkBuffer(Operation *op, Value value) {
  auto type = cast<MemRefType>(value.getType());
  int32_t code = getDataDTypeCode(type.getElementType());
  if (code < 0)
    return op->emitOpError() << "element type " << type.getElementType()
                             << " has no runtime support (f32, f64, f16, "
                                "bf16, i64, i32)";
  if (!memref::isStaticShapeAndContiguousRowMajor(type))
    return op->emitOpError() << "needs a static, contiguous row-major buffer, "
                                "got "
                             << type;
  return code;
}

/// [outer, inner] view of a buffer split at dimension `dim`.
std::pair<int64_t, int64_t> splitAt(MemRefType type, int64_t dim) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < type.getRank(); ++d)
    (d < dim ? outer : inner) *= shape[d];
  return {outer, inner};
}

/// Whether this pass lowers `op`: every summa op but the grid, and with
/// `libraryMatmuls` the matmuls on buffers.
bool isLowered(Operation *op, bool libraryMatmuls) {
  if (isa<SummaDialect>(op->getDialect()))
    return !isa<GridOp>(op);
  auto matmul = dyn_cast<linalg::MatmulOp>(op);
  return libraryMatmuls && matmul && matmul.hasPureBufferSemantics();
}

/// The checks that precede the conversion, so that a bad op is reported
/// once, at the op, with the reason (not as a failure to legalize).
LogicalResult checkLowered(Operation *op) {
  if (isa<MatmulOp>(op))
    return op->emitOpError()
           << "must be expanded (summa-expand-matmul) before lowering";
  if (isa<RelayoutOp>(op))
    return op->emitOpError()
           << "must be partitioned (summa-partition) before lowering";
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op)) {
    return checkRuntimeGemm(matmul, [&] { return matmul.emitOpError(); });
  }
  bool blocking =
      isa<BroadcastOp, ReduceOp, AllReduceOp, AllGatherOp, ReduceScatterOp>(op);
  if (blocking && llvm::any_of(op->getOperandTypes(),
                               [](Type t) { return isa<RankedTensorType>(t); }))
    return op->emitOpError()
           << "on tensors must be bufferized before convert-summa-to-runtime";
  if (blocking || isa<AsyncBroadcastOp, AsyncReduceOp>(op))
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          failed(checkBuffer(op, operand)))
        return failure();
  return success();
}

/// The arguments every in-place collective call starts with: base, offset,
/// count, dtype, axes mask.
SmallVector<Value> inPlaceArgs(OpBuilder &b, Location loc, Value buffer,
                               ArrayRef<int32_t> axes) {
  auto type = cast<MemRefType>(buffer.getType());
  BufferArgs buf = decompose(b, loc, buffer);
  return {buf.base, buf.offset, i64(b, loc, type.getNumElements()),
          i32(b, loc, getDataDTypeCode(type.getElementType())),
          i32(b, loc, axesMask(axes))};
}

/// The module an op's runtime call is declared in.
ModuleOp moduleOf(Operation *op) { return op->getParentOfType<ModuleOp>(); }

/// The arguments of the runtime's call for summa.broadcast / reduce /
/// all_reduce on a buffer (in place) and for async_broadcast / async_reduce
/// (its start): the buffer, then the root and the reduction kind where the
/// op has them.
template <typename OpTy>
static SmallVector<Value>
inPlaceCallArgs(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  constexpr bool hasRoot = !std::is_same_v<OpTy, AllReduceOp>;
  constexpr bool hasKind = !std::is_same_v<OpTy, BroadcastOp> &&
                           !std::is_same_v<OpTy, AsyncBroadcastOp>;
  SmallVector<Value> args =
      inPlaceArgs(b, op.getLoc(), adaptor.getInput(), op.getAxes());
  if constexpr (hasRoot)
    args.push_back(adaptor.getRoot());
  if constexpr (hasKind)
    args.push_back(i32(b, op.getLoc(), static_cast<int32_t>(op.getKind())));
  return args;
}

/// The arguments of the runtime's call for summa.all_gather /
/// reduce_scatter on buffers: [outer, n*inner] / [outer, inner] views
/// around the gathered dimension; `inner` is the small side's.
template <typename OpTy>
static SmallVector<Value>
reshapingCallArgs(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  Value input = adaptor.getInput(), output = adaptor.getOutput();
  constexpr bool gather = std::is_same_v<OpTy, AllGatherOp>;
  auto small = cast<MemRefType>(gather ? input.getType() : output.getType());
  auto [outer, inner] = splitAt(small, op.getDim());
  BufferArgs src = decompose(b, loc, input);
  BufferArgs dst = decompose(b, loc, output);
  int32_t dtype = getDataDTypeCode(small.getElementType());
  SmallVector<Value> args = {
      src.base,           src.offset,
      dst.base,           dst.offset,
      i64(b, loc, outer), i64(b, loc, inner),
      i32(b, loc, dtype), i32(b, loc, axesMask(op.getAxes()))};
  if constexpr (!gather)
    args.push_back(i32(b, loc, static_cast<int32_t>(op.getKind())));
  return args;
}

/// A collective -> one call of the runtime function `fn` with the arguments
/// `arguments` builds. The call's result, where the op has one (the request
/// handle of an asynchronous collective's start), replaces the op's.
template <typename OpTy>
struct LowerToRuntimeCall : OpConversionPattern<OpTy> {
  using ArgumentsFn = SmallVector<Value> (*)(OpTy, typename OpTy::Adaptor,
                                             OpBuilder &);
  template <typename... Args>
  LowerToRuntimeCall(const abi::RuntimeFunction &fn, ArgumentsFn arguments,
                     Args &&...args)
      : OpConversionPattern<OpTy>(std::forward<Args>(args)...), fn(fn),
        arguments(arguments) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    func::CallOp call = abi::createCall(rewriter, op.getLoc(), moduleOf(op), fn,
                                        arguments(op, adaptor, rewriter));
    if (op->getNumResults())
      rewriter.replaceOp(op, call.getResults());
    else
      rewriter.eraseOp(op);
    return success();
  }
  const abi::RuntimeFunction &fn;
  ArgumentsFn arguments;
};

/// summa.coord -> summaRtGridCoord, cast to index.
struct LowerCoord : OpConversionPattern<CoordOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CoordOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    func::CallOp call = abi::createCall(
        rewriter, loc, moduleOf(op), abi::kGridCoord,
        {i32(rewriter, loc, static_cast<int32_t>(op.getAxis()))});
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    call.getResult(0));
    return success();
  }
};

/// linalg.matmul on buffers (A·B, A·Bᵀ or Aᵀ·B) -> summaRtMatmul: C += the
/// product, or C = the product for the matmuls in `overwrite` (their zero
/// fill is gone).
struct LowerLinalgMatmul : OpConversionPattern<linalg::MatmulOp> {
  LowerLinalgMatmul(MLIRContext *ctx,
                    const llvm::SmallPtrSetImpl<Operation *> &overwrite)
      : OpConversionPattern<linalg::MatmulOp>(ctx), overwrite(overwrite) {}
  LogicalResult
  matchAndRewrite(linalg::MatmulOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // One runtime type for all three operands (checkLowered).
    Location loc = op.getLoc();
    GemmArgs g = getGemmArgs(rewriter, loc, op);
    BufferArgs C = decompose(rewriter, loc, op.getDpsInitOperand(0)->get());
    Value lda = leadingDimension(rewriter, loc, g.a);
    Value ldb = leadingDimension(rewriter, loc, g.b);
    Value ldc = leadingDimension(rewriter, loc, C);
    auto c32 = [&](int64_t v) { return i32(rewriter, loc, v); };
    abi::createCall(rewriter, loc, moduleOf(op), abi::kMatmul,
                    {c32(g.dtype), g.a.base, g.a.offset, lda, g.b.base,
                     g.b.offset, ldb, C.base, C.offset, ldc, g.m, g.n, g.k,
                     c32(g.transA), c32(g.transB),
                     c32(overwrite.contains(op) ? 0 : 1)});
    rewriter.eraseOp(op);
    return success();
  }
  const llvm::SmallPtrSetImpl<Operation *> &overwrite;
};

/// summa.wait -> summaRtWait on the request handle.
struct LowerWait : OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    abi::createCall(rewriter, op.getLoc(), moduleOf(op), abi::kWait,
                    {adaptor.getToken()});
    rewriter.eraseOp(op);
    return success();
  }
};

/// !summa.token -> the runtime's request handle (i64), also where scf loops
/// carry it; every other type stays.
struct TokenToHandle : TypeConverter {
  TokenToHandle() {
    addConversion([](Type t) { return t; });
    addConversion([](TokenType t) -> Type {
      return IntegerType::get(t.getContext(), 64);
    });
    auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                          Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs)
          .getResult(0);
    };
    addSourceMaterialization(materialize);
    addTargetMaterialization(materialize);
  }
};

/// Drops the summa.* attributes (layouts, roles) of a function's arguments
/// and results: nothing after this pass reads them.
void stripSummaAttrs(func::FuncOp func) {
  auto strip = [](DictionaryAttr dict) -> DictionaryAttr {
    if (!dict)
      return dict;
    SmallVector<NamedAttribute> kept;
    for (NamedAttribute attr : dict)
      if (!attr.getName().getValue().starts_with("summa."))
        kept.push_back(attr);
    return DictionaryAttr::get(dict.getContext(), kept);
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    func.setArgAttrs(i, strip(func.getArgAttrDict(i)));
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    func.setResultAttrs(i, strip(func.getResultAttrDict(i)));
}

struct ConvertSummaToRuntimePass
    : summa::impl::ConvertSummaToRuntimeBase<ConvertSummaToRuntimePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    bool library = libraryMatmuls;
    bool valid = true;
    module.walk([&](Operation *op) {
      if (isLowered(op, library) && failed(checkLowered(op)))
        valid = false;
    });
    if (!valid)
      return signalPassFailure();
    // GEMMs that overwrite their output: their zero fill goes.
    llvm::SmallPtrSet<Operation *, 16> overwrite;
    SmallVector<Operation *> fills;
    if (library)
      module.walk([&](linalg::MatmulOp matmul) {
        if (!matmul.hasPureBufferSemantics())
          return;
        if (linalg::FillOp fill = zeroFillBefore(matmul)) {
          overwrite.insert(matmul);
          fills.push_back(fill);
        }
      });
    for (Operation *fill : fills)
      fill->erase();

    TokenToHandle converter;
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return !isLowered(op, library); });
    RewritePatternSet patterns(ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // Collectives on buffers, then the starts of asynchronous ones (whose
    // token type the converter turns into the request handle).
    patterns.add<LowerToRuntimeCall<BroadcastOp>>(
        abi::kBroadcast, inPlaceCallArgs<BroadcastOp>, ctx);
    patterns.add<LowerToRuntimeCall<ReduceOp>>(abi::kReduce,
                                               inPlaceCallArgs<ReduceOp>, ctx);
    patterns.add<LowerToRuntimeCall<AllReduceOp>>(
        abi::kAllReduce, inPlaceCallArgs<AllReduceOp>, ctx);
    patterns.add<LowerToRuntimeCall<AllGatherOp>>(
        abi::kAllGather, reshapingCallArgs<AllGatherOp>, ctx);
    patterns.add<LowerToRuntimeCall<ReduceScatterOp>>(
        abi::kReduceScatter, reshapingCallArgs<ReduceScatterOp>, ctx);
    patterns.add<LowerToRuntimeCall<AsyncBroadcastOp>>(
        abi::kBroadcastStart, inPlaceCallArgs<AsyncBroadcastOp>, converter,
        ctx);
    patterns.add<LowerToRuntimeCall<AsyncReduceOp>>(
        abi::kReduceStart, inPlaceCallArgs<AsyncReduceOp>, converter, ctx);
    patterns.add<LowerCoord>(ctx);
    patterns.add<LowerLinalgMatmul>(ctx, overwrite);
    patterns.add<LowerWait>(converter, ctx);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // The grid and the layout annotations have served their purpose.
    for (auto grid : llvm::make_early_inc_range(module.getOps<GridOp>()))
      grid.erase();
    for (auto func : module.getOps<func::FuncOp>())
      stripSummaAttrs(func);
  }
};
} // namespace
