//===- PackArguments.cpp - buffers as an array of pointers ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-pack-arguments: a function of static, contiguous memrefs
// takes one array of their data pointers, and rebuilds each memref's
// descriptor from its pointer and its static shape.
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAPACKARGUMENTS
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

/// The descriptor of `type` (static shape, identity layout) over `data`, in
/// the struct type that LLVM lowering gives a memref, cast to the memref.
static Value rebuildMemRef(OpBuilder &b, Location loc, MemRefType type,
                           Value data) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  Type ptr = data.getType();
  int64_t rank = type.getRank();
  SmallVector<Type> fields{ptr, ptr, i64};
  if (rank > 0) {
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
  }
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value desc = LLVM::PoisonOp::create(b, loc, structType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, data, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, data, ArrayRef<int64_t>{1});
  desc = LLVM::InsertValueOp::create(b, loc, desc, constant(0),
                                     ArrayRef<int64_t>{2});
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t size = type.getDimSize(d);
    desc = LLVM::InsertValueOp::create(b, loc, desc, constant(size),
                                       ArrayRef<int64_t>{3, d});
    desc = LLVM::InsertValueOp::create(b, loc, desc, constant(stride),
                                       ArrayRef<int64_t>{4, d});
    stride *= size;
  }
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}

namespace {
struct SummaPackArgumentsPass
    : public summa::impl::SummaPackArgumentsBase<SummaPackArgumentsPass> {
  using SummaPackArgumentsBase::SummaPackArgumentsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (const std::string &name : functions) {
      auto func = module.lookupSymbol<func::FuncOp>(name);
      if (!func || func.isExternal()) {
        module.emitError() << "summa-pack-arguments: no function @" << name
                           << " with a body";
        return signalPassFailure();
      }
      if (failed(pack(func)))
        return signalPassFailure();
    }
  }

  LogicalResult pack(func::FuncOp func) {
    if (func.getNumResults() != 0)
      return func.emitError() << "summa-pack-arguments: @" << func.getSymName()
                              << " has results (buffers are out-parameters)";
    for (BlockArgument arg : func.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace())
        return func.emitError()
               << "summa-pack-arguments: argument #" << arg.getArgNumber()
               << " of @" << func.getSymName() << " has type " << arg.getType()
               << "; only static, contiguous memrefs can be passed as a "
                  "pointer";
    }
    MLIRContext *ctx = func.getContext();
    Location loc = func.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    Block &entry = func.getBody().front();
    unsigned count = entry.getNumArguments();
    Value buffers = entry.addArgument(ptr, loc);
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    for (unsigned i = 0; i < count; ++i) {
      BlockArgument arg = entry.getArgument(i);
      Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, buffers,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value data = LLVM::LoadOp::create(b, loc, ptr, slot);
      Value memref =
          rebuildMemRef(b, loc, cast<MemRefType>(arg.getType()), data);
      arg.replaceAllUsesWith(memref);
    }
    entry.eraseArguments(0, count);
    func.setFunctionType(FunctionType::get(ctx, {ptr}, {}));
    func.setAllArgAttrs(ArrayRef<DictionaryAttr>{DictionaryAttr::get(ctx)});
    return success();
  }
};
} // namespace
