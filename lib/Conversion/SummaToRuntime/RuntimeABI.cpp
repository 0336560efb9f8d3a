//===- RuntimeABI.cpp - the runtime C ABI, declared once --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one description, in the compiler, of the runtime functions that
// compiled code calls. Each entry mirrors a declaration of
// runtime/include/summa/Runtime/SummaRuntime.h (API version
// kRuntimeAPIVersion, summa/Conversion/Passes.h); the C type of
// every argument is given beside it.
//
//===----------------------------------------------------------------------===//

#include "RuntimeABI.h"

#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Runtime/SummaRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::abi;

namespace mlir::summa::abi {
constexpr CType IntPtr = CType::IntPtr, I64 = CType::I64, I32 = CType::I32;

const RuntimeFunction kBroadcast = {"summaRtBroadcast",
                                    {IntPtr /*base*/, I64 /*offset*/,
                                     I64 /*count*/, I32 /*dtype*/,
                                     I32 /*axesMask*/, I64 /*root*/}};

const RuntimeFunction kReduce = {
    "summaRtReduce",
    {IntPtr /*base*/, I64 /*offset*/, I64 /*count*/, I32 /*dtype*/,
     I32 /*axesMask*/, I64 /*root*/, I32 /*kind*/}};

const RuntimeFunction kBroadcastStart = {"summaRtBroadcastStart",
                                         {IntPtr /*base*/, I64 /*offset*/,
                                          I64 /*count*/, I32 /*dtype*/,
                                          I32 /*axesMask*/, I64 /*root*/},
                                         /*result: int64_t request*/ I64};

const RuntimeFunction kReduceStart = {
    "summaRtReduceStart",
    {IntPtr /*base*/, I64 /*offset*/, I64 /*count*/, I32 /*dtype*/,
     I32 /*axesMask*/, I64 /*root*/, I32 /*kind*/},
    /*result: int64_t request*/ I64};

const RuntimeFunction kWait = {"summaRtWait", {I64 /*request*/}};

const RuntimeFunction kAllReduce = {"summaRtAllReduce",
                                    {IntPtr /*base*/, I64 /*offset*/,
                                     I64 /*count*/, I32 /*dtype*/,
                                     I32 /*axesMask*/, I32 /*kind*/}};

const RuntimeFunction kAllGather = {"summaRtAllGather",
                                    {IntPtr /*srcBase*/, I64 /*srcOffset*/,
                                     IntPtr /*dstBase*/, I64 /*dstOffset*/,
                                     I64 /*outer*/, I64 /*inner*/,
                                     I32 /*dtype*/, I32 /*axesMask*/}};

const RuntimeFunction kReduceScatter = {
    "summaRtReduceScatter",
    {IntPtr /*srcBase*/, I64 /*srcOffset*/, IntPtr /*dstBase*/,
     I64 /*dstOffset*/, I64 /*outer*/, I64 /*inner*/, I32 /*dtype*/,
     I32 /*axesMask*/, I32 /*kind*/}};

const RuntimeFunction kMatmul = {
    "summaRtMatmul",
    {I32 /*dtype*/, IntPtr /*aBase*/, I64 /*aOffset*/, I64 /*lda*/,
     IntPtr /*bBase*/, I64 /*bOffset*/, I64 /*ldb*/, IntPtr /*cBase*/,
     I64 /*cOffset*/, I64 /*ldc*/, I64 /*m*/, I64 /*n*/, I64 /*k*/,
     I32 /*transA*/, I32 /*transB*/, I32 /*accumulate*/}};

const RuntimeFunction kMatmulBatched = {
    "summaRtMatmulBatched",
    {I32 /*dtype*/,   IntPtr /*aBase*/, I64 /*aOffset*/, I64 /*lda*/,
     I64 /*strideA*/, IntPtr /*bBase*/, I64 /*bOffset*/, I64 /*ldb*/,
     I64 /*strideB*/, IntPtr /*cBase*/, I64 /*cOffset*/, I64 /*ldc*/,
     I64 /*strideC*/, I64 /*m*/,        I64 /*n*/,       I64 /*k*/,
     I64 /*batch*/,   I32 /*transA*/,   I32 /*transB*/,  I32 /*accumulate*/}};

const RuntimeFunction kMatmulEpilogue = {
    "summaRtMatmulEpilogue",
    {I32 /*dtype*/,    IntPtr /*aBase*/,    I64 /*aOffset*/,
     I64 /*lda*/,      IntPtr /*bBase*/,    I64 /*bOffset*/,
     I64 /*ldb*/,      IntPtr /*rBase*/,    I64 /*rOffset*/,
     I64 /*ldr*/,      IntPtr /*biasBase*/, I64 /*biasOffset*/,
     IntPtr /*dBase*/, I64 /*dOffset*/,     I64 /*ldd*/,
     I64 /*m*/,        I64 /*n*/,           I64 /*k*/,
     I32 /*transA*/,   I32 /*transB*/,      I32 /*activation*/}};

const RuntimeFunction kLoadScalar = {
    "summaRtLoadScalar",
    {IntPtr /*base*/, I64 /*offset*/, I32 /*dtype*/},
    /*result: int64_t*/ I64};

const RuntimeFunction kGridCoord = {
    "summaRtGridCoord", {I32 /*axis*/}, /*result: int64_t*/ I64};
} // namespace mlir::summa::abi

// The codes and the version are the runtime header's own.
static_assert(kRuntimeAPIVersion == SUMMA_RT_API_VERSION,
              "the compiler's runtime ABI version is the runtime header's");
// Grid axes (the collectives' axis masks) and reduction kinds are passed as
// the dialect's enum values.
static_assert(static_cast<int>(GridAxis::row) == SUMMA_AXIS_ROW &&
                  static_cast<int>(GridAxis::col) == SUMMA_AXIS_COL &&
                  static_cast<int>(GridAxis::depth) == SUMMA_AXIS_DEPTH,
              "grid axes are the runtime's SUMMA_AXIS_* codes");
static_assert(static_cast<int>(ReductionKind::sum) == SUMMA_RED_SUM &&
                  static_cast<int>(ReductionKind::max) == SUMMA_RED_MAX &&
                  static_cast<int>(ReductionKind::min) == SUMMA_RED_MIN &&
                  static_cast<int>(ReductionKind::prod) == SUMMA_RED_PROD,
              "reduction kinds are the runtime's SUMMA_RED_* codes");

static Type getMLIRType(MLIRContext *ctx, CType t) {
  switch (t) {
  case CType::IntPtr:
    return IndexType::get(ctx);
  case CType::I64:
    return IntegerType::get(ctx, 64);
  case CType::I32:
    return IntegerType::get(ctx, 32);
  }
  llvm_unreachable("covered switch");
}

func::CallOp mlir::summa::abi::createCall(OpBuilder &b, Location loc,
                                          ModuleOp module,
                                          const RuntimeFunction &fn,
                                          ValueRange args) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Type> types;
  for (CType t : fn.args)
    types.push_back(getMLIRType(ctx, t));
  SmallVector<Type> results;
  if (fn.result)
    results.push_back(getMLIRType(ctx, *fn.result));
  auto fnType = FunctionType::get(ctx, types, results);
  auto decl = module.lookupSymbol<func::FuncOp>(fn.name);
  if (!decl) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    decl = func::FuncOp::create(b, loc, fn.name, fnType);
    decl.setPrivate();
  }
  assert(decl.getFunctionType() == fnType && "runtime declaration mismatch");
  assert(args.size() == types.size() && "wrong number of runtime arguments");
  SmallVector<Value> casted;
  for (auto [arg, type] : llvm::zip(args, types)) {
    if (arg.getType() == type)
      casted.push_back(arg);
    else if (arg.getType().isIndex() || type.isIndex())
      casted.push_back(arith::IndexCastOp::create(b, loc, type, arg));
    else
      casted.push_back(arith::TruncIOp::create(b, loc, type, arg));
  }
  return func::CallOp::create(b, loc, decl, casted);
}
