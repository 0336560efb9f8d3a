//===- SummaToRuntime.cpp - summa ops to runtime calls ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements convert-summa-to-runtime: bufferized collectives and local
// GEMMs become calls of the runtime C ABI (see RuntimeABI.cpp). A buffer is
// passed as its aligned pointer (index) and element offset.
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"

#include "RuntimeABI.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

/// A memref decomposed for the runtime: aligned base pointer, element
/// offset, sizes and strides as values.
struct BufferArgs {
  Value base, offset;
  SmallVector<Value> sizes, strides;
};

BufferArgs decompose(OpBuilder &b, Location loc, Value memref) {
  BufferArgs args;
  args.base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  args.offset = meta.getOffset();
  llvm::append_range(args.sizes, meta.getSizes());
  llvm::append_range(args.strides, meta.getStrides());
  return args;
}

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
  int32_t code = abi::getDataDTypeCode(type.getElementType());
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

class Lowering {
public:
  explicit Lowering(ModuleOp module) : module(module) {}

  LogicalResult lower(Operation *op);

private:
  LogicalResult lowerInPlace(Operation *op, Value buffer,
                             ArrayRef<int32_t> axes, Value root,
                             std::optional<ReductionKind> kind,
                             const abi::RuntimeFunction &fn);
  template <typename OpTy>
  LogicalResult lowerReshaping(OpTy op, const abi::RuntimeFunction &fn);
  LogicalResult lowerMatmul(linalg::MatmulOp op);

  ModuleOp module;
};

} // namespace

LogicalResult Lowering::lowerInPlace(Operation *op, Value buffer,
                                     ArrayRef<int32_t> axes, Value root,
                                     std::optional<ReductionKind> kind,
                                     const abi::RuntimeFunction &fn) {
  FailureOr<int32_t> dtype = checkBuffer(op, buffer);
  if (failed(dtype))
    return failure();
  OpBuilder b(op);
  Location loc = op->getLoc();
  BufferArgs buf = decompose(b, loc, buffer);
  SmallVector<Value> args = {
      buf.base, buf.offset,
      i64(b, loc, cast<MemRefType>(buffer.getType()).getNumElements()),
      i32(b, loc, *dtype), i32(b, loc, axesMask(axes))};
  if (root)
    args.push_back(root);
  if (kind)
    args.push_back(i32(b, loc, static_cast<int32_t>(*kind)));
  abi::createCall(b, loc, module, fn, args);
  op->erase();
  return success();
}

template <typename OpTy>
LogicalResult Lowering::lowerReshaping(OpTy op,
                                       const abi::RuntimeFunction &fn) {
  FailureOr<int32_t> dtype = checkBuffer(op, op.getInput());
  if (failed(dtype) || failed(checkBuffer(op, op.getOutput())))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  // The runtime views both buffers as [outer, n*inner] / [outer, inner]
  // around the gathered dimension; `inner` is the small side's.
  auto small = cast<MemRefType>(std::is_same_v<OpTy, AllGatherOp>
                                    ? op.getInput().getType()
                                    : op.getOutput().getType());
  auto [outer, inner] = splitAt(small, op.getDim());
  BufferArgs src = decompose(b, loc, op.getInput());
  BufferArgs dst = decompose(b, loc, op.getOutput());
  SmallVector<Value> args = {src.base,
                             src.offset,
                             dst.base,
                             dst.offset,
                             i64(b, loc, outer),
                             i64(b, loc, inner),
                             i32(b, loc, *dtype),
                             i32(b, loc, axesMask(op.getAxes()))};
  if constexpr (std::is_same_v<OpTy, ReduceScatterOp>)
    args.push_back(i32(b, loc, static_cast<int32_t>(op.getKind())));
  abi::createCall(b, loc, module, fn, args);
  op->erase();
  return success();
}

LogicalResult Lowering::lowerMatmul(linalg::MatmulOp op) {
  if (!op.hasPureBufferSemantics())
    return success(); // Tensor matmuls are not ours to lower.
  std::optional<MatmulForm> form = getMatmulForm(op.getIndexingMapsArray());
  if (!form)
    return op.emitOpError() << "with these indexing maps is not A·B, A·Bᵀ "
                               "or Aᵀ·B; it has no runtime GEMM";
  Value a = op.getDpsInputOperand(0)->get(),
        bv = op.getDpsInputOperand(1)->get(),
        c = op.getDpsInitOperand(0)->get();
  int32_t dtype = -1;
  for (Value v : {a, bv, c}) {
    auto type = cast<MemRefType>(v.getType());
    int32_t code = abi::getDTypeCode(type.getElementType());
    if (code < 0 || (dtype >= 0 && code != dtype))
      return op.emitOpError() << "operand element types must be one runtime "
                                 "type (f32, f64, f16, bf16), got "
                              << type.getElementType();
    dtype = code;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return op.emitOpError()
             << "needs unit stride in the last dimension, got " << type;
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  BufferArgs A = decompose(b, loc, a), B = decompose(b, loc, bv),
             C = decompose(b, loc, c);
  // C[m,n] += op(A)·op(B) with op(A) = Aᵀ for atb and op(B) = Bᵀ for abt.
  bool transA = *form == MatmulForm::atb, transB = *form == MatmulForm::abt;
  Value m = transA ? A.sizes[1] : A.sizes[0];
  Value k = transA ? A.sizes[0] : A.sizes[1];
  Value n = transB ? B.sizes[0] : B.sizes[1];
  abi::createCall(b, loc, module, abi::kMatmul,
                  {i32(b, loc, dtype), A.base, A.offset, A.strides[0], B.base,
                   B.offset, B.strides[0], C.base, C.offset, C.strides[0], m, n,
                   k, i32(b, loc, transA), i32(b, loc, transB),
                   i32(b, loc, 1)});
  op.erase();
  return success();
}

LogicalResult Lowering::lower(Operation *op) {
  auto requireBuffers = [&](bool bufferized) -> LogicalResult {
    if (bufferized)
      return success();
    return op->emitOpError()
           << "on tensors must be bufferized before convert-summa-to-runtime";
  };
  if (auto bcast = dyn_cast<BroadcastOp>(op))
    return failed(requireBuffers(bcast.hasBufferSemantics()))
               ? failure()
               : lowerInPlace(op, bcast.getInput(), bcast.getAxes(),
                              bcast.getRoot(), std::nullopt, abi::kBroadcast);
  if (auto red = dyn_cast<ReduceOp>(op))
    return failed(requireBuffers(red.hasBufferSemantics()))
               ? failure()
               : lowerInPlace(op, red.getInput(), red.getAxes(), red.getRoot(),
                              red.getKind(), abi::kReduce);
  if (auto ar = dyn_cast<AllReduceOp>(op))
    return failed(requireBuffers(ar.hasBufferSemantics()))
               ? failure()
               : lowerInPlace(op, ar.getInput(), ar.getAxes(), Value(),
                              ar.getKind(), abi::kAllReduce);
  if (auto ag = dyn_cast<AllGatherOp>(op))
    return failed(requireBuffers(ag.hasBufferSemantics()))
               ? failure()
               : lowerReshaping(ag, abi::kAllGather);
  if (auto rs = dyn_cast<ReduceScatterOp>(op))
    return failed(requireBuffers(rs.hasBufferSemantics()))
               ? failure()
               : lowerReshaping(rs, abi::kReduceScatter);
  if (auto coord = dyn_cast<CoordOp>(op)) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    func::CallOp call =
        abi::createCall(b, loc, module, abi::kGridCoord,
                        {i32(b, loc, static_cast<int32_t>(coord.getAxis()))});
    Value index =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), call.getResult(0));
    coord.replaceAllUsesWith(index);
    coord.erase();
    return success();
  }
  if (auto mm = dyn_cast<MatmulOp>(op))
    return mm.emitOpError()
           << "must be expanded (summa-expand-matmul) before lowering";
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    return lowerMatmul(mm);
  return success();
}

/// Drops the summa.* attributes (layouts, roles) of a function's arguments
/// and results: nothing after this pass reads them.
static void stripSummaAttrs(func::FuncOp func) {
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

namespace {

/// The arguments every in-place collective call starts with: base, offset,
/// count, dtype, axes mask.
FailureOr<SmallVector<Value>>
inPlaceArgs(OpBuilder &b, Operation *op, Value buffer, ArrayRef<int32_t> axes) {
  FailureOr<int32_t> dtype = checkBuffer(op, buffer);
  if (failed(dtype))
    return failure();
  Location loc = op->getLoc();
  BufferArgs buf = decompose(b, loc, buffer);
  return SmallVector<Value>{
      buf.base, buf.offset,
      i64(b, loc, cast<MemRefType>(buffer.getType()).getNumElements()),
      i32(b, loc, *dtype), i32(b, loc, axesMask(axes))};
}

/// summa.async_broadcast / summa.async_reduce -> the runtime's start call,
/// whose request handle replaces the token.
template <typename OpTy>
struct StartCollective : OpConversionPattern<OpTy> {
  StartCollective(const TypeConverter &converter, MLIRContext *ctx,
                  const abi::RuntimeFunction &fn)
      : OpConversionPattern<OpTy>(converter, ctx), fn(fn) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> args =
        inPlaceArgs(rewriter, op, adaptor.getInput(), op.getAxes());
    if (failed(args))
      return failure();
    args->push_back(adaptor.getRoot());
    if constexpr (std::is_same_v<OpTy, AsyncReduceOp>)
      args->push_back(
          i32(rewriter, op.getLoc(), static_cast<int32_t>(op.getKind())));
    func::CallOp call =
        abi::createCall(rewriter, op.getLoc(),
                        op->template getParentOfType<ModuleOp>(), fn, *args);
    rewriter.replaceOp(op, call.getResult(0));
    return success();
  }
  const abi::RuntimeFunction &fn;
};

struct LowerWait : OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    abi::createCall(rewriter, op.getLoc(), op->getParentOfType<ModuleOp>(),
                    abi::kWait, {adaptor.getToken()});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Lowers the asynchronous collectives, and the tokens wherever loops carry
/// them, with a dialect conversion.
LogicalResult lowerAsync(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  // Buffers are checked first, so that a bad one is reported once, at its
  // op, and not also as a failure to legalize.
  bool any = false, valid = true;
  module.walk([&](Operation *op) {
    if (isa<WaitOp>(op))
      any = true;
    if (!isa<AsyncBroadcastOp, AsyncReduceOp>(op))
      return;
    any = true;
    if (failed(checkBuffer(op, op->getOperand(0))))
      valid = false;
  });
  if (!valid)
    return failure();
  if (!any)
    return success();
  TypeConverter converter;
  converter.addConversion([](Type t) { return t; });
  converter.addConversion(
      [](TokenType t) -> Type { return IntegerType::get(t.getContext(), 64); });
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  converter.addSourceMaterialization(materialize);
  converter.addTargetMaterialization(materialize);
  ConversionTarget target(*ctx);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addIllegalOp<AsyncBroadcastOp, AsyncReduceOp, WaitOp>();
  RewritePatternSet patterns(ctx);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  patterns.add<StartCollective<AsyncBroadcastOp>>(converter, ctx,
                                                  abi::kBroadcastStart);
  patterns.add<StartCollective<AsyncReduceOp>>(converter, ctx,
                                               abi::kReduceStart);
  patterns.add<LowerWait>(converter, ctx);
  return applyPartialConversion(module, target, std::move(patterns));
}

struct ConvertSummaToRuntimePass
    : summa::impl::ConvertSummaToRuntimeBase<ConvertSummaToRuntimePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Lowering lowering(module);
    SmallVector<Operation *> ops;
    if (failed(lowerAsync(module)))
      return signalPassFailure();
    module.walk([&](Operation *op) {
      if (isa<SummaDialect>(op->getDialect()) && !isa<GridOp>(op))
        ops.push_back(op);
      else if (libraryMatmuls && isa<linalg::MatmulOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(lowering.lower(op)))
        return signalPassFailure();
    // The grid and the layout annotations have served their purpose.
    for (auto grid : llvm::make_early_inc_range(module.getOps<GridOp>()))
      grid.erase();
    for (auto func : module.getOps<func::FuncOp>())
      stripSummaAttrs(func);
  }
};
} // namespace
