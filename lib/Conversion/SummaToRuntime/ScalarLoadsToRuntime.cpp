//===- ScalarLoadsToRuntime.cpp - host reads of integers ---------*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements convert-scalar-loads-to-runtime: the integers host code reads
// from buffers (a decode step's position) through summaRtLoadScalar, which
// knows where the buffers live.
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"

#include "RuntimeABI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "summa/Runtime/SummaRuntime.h"

namespace mlir::summa {
#define GEN_PASS_DEF_CONVERTSCALARLOADSTORUNTIME
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// Whether `op` runs on the host: no linalg op, parallel loop nest or kernel
/// encloses it (those become kernels, which read device memory themselves).
bool onHost(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<FunctionOpInterface>(parent))
      return true;
    if (isa<linalg::LinalgOp, scf::ParallelOp, gpu::LaunchOp, gpu::GPUModuleOp>(
            parent))
      return false;
  }
  return false;
}

struct ConvertScalarLoadsToRuntimePass
    : summa::impl::ConvertScalarLoadsToRuntimeBase<
          ConvertScalarLoadsToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::LoadOp> loads;
    module.walk([&](memref::LoadOp load) {
      Type type = load.getType();
      if (onHost(load) &&
          (type.isSignlessInteger(64) || type.isSignlessInteger(32)))
        loads.push_back(load);
    });
    for (memref::LoadOp load : loads) {
      OpBuilder b(load);
      Location loc = load.getLoc();
      // The element's offset: the buffer's own, plus the indices along its
      // strides.
      Value base = memref::ExtractAlignedPointerAsIndexOp::create(
          b, loc, load.getMemRef());
      auto meta =
          memref::ExtractStridedMetadataOp::create(b, loc, load.getMemRef());
      Value offset = meta.getOffset();
      for (auto [index, stride] :
           llvm::zip(load.getIndices(), meta.getStrides()))
        offset = arith::AddIOp::create(
            b, loc, offset, arith::MulIOp::create(b, loc, index, stride));
      bool wide = load.getType().isSignlessInteger(64);
      Value dtype = arith::ConstantIntOp::create(
          b, loc, b.getI32Type(), wide ? SUMMA_DT_I64 : SUMMA_DT_I32);
      Value value = abi::createCall(b, loc, module, abi::kLoadScalar,
                                    {base, offset, dtype})
                        .getResult(0);
      if (!wide)
        value = arith::TruncIOp::create(b, loc, b.getI32Type(), value);
      load.replaceAllUsesWith(value);
      load.erase();
    }
  }
};

} // namespace
