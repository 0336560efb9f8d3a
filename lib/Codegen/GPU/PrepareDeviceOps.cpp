//===- PrepareDeviceOps.cpp - local memref ops into kernel form -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-prepare-device-ops, the first step of --target=cuda: a
// memref.copy becomes linalg.copy, and a structured op without a parallel
// iterator is wrapped in a one-iteration scf.parallel, so that every local
// op of a host function becomes a GPU kernel; host globals are copied into
// device buffers.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "HostCode.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAPREPAREDEVICEOPS
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

namespace {

/// memref.copy -> linalg.copy (lowered to a parallel loop like any other
/// structured op, strided operands included).
void copyToLinalg(IRRewriter &rewriter, memref::CopyOp copy) {
  rewriter.setInsertionPoint(copy);
  rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                              copy.getTarget());
}

/// Wraps `op` in scf.parallel (%i) = (0) to (1) step (1).
void wrapInOneIterationLoop(IRRewriter &rewriter, linalg::LinalgOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                      ValueRange{one}, ValueRange{one});
  rewriter.moveOpBefore(op, loop.getBody()->getTerminator());
}

/// Each memref.get_global of `function` (host memory) replaced by a device
/// buffer that the function's entry fills from it (one per global), freed
/// before each return; false, with an error, where that cannot be done.
bool copyGlobalsToDevice(IRRewriter &rewriter, FunctionOpInterface function) {
  SmallVector<memref::GetGlobalOp> reads;
  function->walk([&](memref::GetGlobalOp op) { reads.push_back(op); });
  if (reads.empty() || function.isExternal())
    return true;
  Block &entry = function.getFunctionBody().front();
  llvm::StringMap<Value> device;
  SmallVector<Value> buffers;
  rewriter.setInsertionPointToStart(&entry);
  for (memref::GetGlobalOp read : reads) {
    MemRefType type = read.getType();
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        read, read.getNameAttr());
    if (!global || !global.getConstant()) {
      read.emitError() << "summa-prepare-device-ops: the host global @"
                       << read.getName()
                       << " is not a constant: a copy on the device would "
                          "not see the host's writes, nor the host the "
                          "device's";
      return false;
    }
    if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
      read.emitError() << "summa-prepare-device-ops: the host global @"
                       << read.getName() << " of type " << type
                       << " cannot be copied to the device (not a static "
                          "shape with the identity layout)";
      return false;
    }
    Value &buffer = device[read.getName()];
    if (!buffer) {
      Location loc = read.getLoc();
      Value host =
          memref::GetGlobalOp::create(rewriter, loc, type, read.getNameAttr());
      buffer = memref::AllocOp::create(rewriter, loc, type);
      Type token = gpu::AsyncTokenType::get(rewriter.getContext());
      Value start =
          gpu::WaitOp::create(rewriter, loc, token, ValueRange{}).getResult(0);
      Value copied = gpu::MemcpyOp::create(rewriter, loc, token,
                                           ValueRange{start}, buffer, host)
                         .getAsyncToken();
      gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{copied});
      buffers.push_back(buffer);
    }
    rewriter.replaceOp(read, buffer);
  }
  function->walk([&](Operation *op) {
    if (!op->hasTrait<OpTrait::ReturnLike>() ||
        op->getParentOp() != function.getOperation())
      return;
    rewriter.setInsertionPoint(op);
    for (Value buffer : buffers)
      if (!llvm::is_contained(op->getOperands(), buffer))
        memref::DeallocOp::create(rewriter, op->getLoc(), buffer);
  });
  return true;
}

struct SummaPrepareDeviceOpsPass
    : summa::impl::SummaPrepareDeviceOpsBase<SummaPrepareDeviceOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    SmallVector<linalg::LinalgOp> serial;
    summa::walkHostCode(getOperation(), [&](Operation *op) {
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        copies.push_back(copy);
      else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        if (linalgOp.hasPureBufferSemantics() &&
            linalgOp.getNumParallelLoops() == 0 &&
            !op->getParentOfType<scf::ParallelOp>())
          serial.push_back(linalgOp);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies)
      copyToLinalg(rewriter, copy);
    for (linalg::LinalgOp op : serial)
      wrapInOneIterationLoop(rewriter, op);
    if (!globalsToDevice)
      return;
    for (auto function : getOperation().getOps<FunctionOpInterface>())
      if (!copyGlobalsToDevice(rewriter, function))
        return signalPassFailure();
  }
};

} // namespace
