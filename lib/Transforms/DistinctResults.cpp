//===- DistinctResults.cpp - one buffer per returned result -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-distinct-results (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMADISTINCTRESULTS
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

/// A fresh buffer holding a copy of `value`, of the type `value` has.
static FailureOr<Value> copyOf(OpBuilder &builder, Location loc, Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return failure();
  SmallVector<Value> sizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      sizes.push_back(memref::DimOp::create(builder, loc, value, dim));
  auto identity =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  Value copy = memref::AllocOp::create(builder, loc, identity, sizes);
  memref::CopyOp::create(builder, loc, value, copy);
  if (identity != type)
    copy = memref::CastOp::create(builder, loc, type, copy);
  return copy;
}

namespace {
struct SummaDistinctResultsPass
    : summa::impl::SummaDistinctResultsBase<SummaDistinctResultsPass> {
  using Base::Base;
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](func::ReturnOp ret) {
      llvm::SmallDenseSet<Value> returned;
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        if (!isa<BaseMemRefType>(value.getType()) ||
            returned.insert(value).second)
          continue;
        FailureOr<Value> copy = copyOf(builder, ret.getLoc(), value);
        if (failed(copy)) {
          ret.emitOpError("returns the unranked buffer ")
              << value.getType() << " as result " << operand.getOperandNumber()
              << " and as an earlier result: one of them needs a buffer of "
                 "its own, which an unranked type cannot allocate";
          return WalkResult::interrupt();
        }
        operand.set(*copy);
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
