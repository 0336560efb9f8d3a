//===- PrepareDeviceOps.cpp - local memref ops into kernel form -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-prepare-device-ops, the first step of --target=cuda: a
// memref.copy becomes linalg.copy, and a structured op without a parallel
// iterator is wrapped in a one-iteration scf.parallel, so that every local
// op of a host function becomes a GPU kernel.
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"

#include "HostCode.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAPREPAREDEVICEOPS
#include "summa/Conversion/Passes.h.inc"
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

struct SummaPrepareDeviceOpsPass
    : summa::impl::SummaPrepareDeviceOpsBase<SummaPrepareDeviceOpsPass> {
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
  }
};

} // namespace
