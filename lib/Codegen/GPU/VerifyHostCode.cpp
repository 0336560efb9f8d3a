//===- VerifyHostCode.cpp - no host access to device memory -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-verify-host-code. With --target=cuda every buffer is
// device memory, so after kernel outlining a host function may allocate and
// free buffers, take their metadata, call the runtime and launch kernels,
// and nothing else that reads or writes a buffer.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "HostCode.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAVERIFYHOSTCODE
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

namespace {

/// True if `op` reads or writes the contents of a memref.
bool accessesBufferContents(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    if (!isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()))
      return false;
    Value v = e.getValue();
    // An effect on no particular value may be on any buffer.
    return !v || isa<BaseMemRefType>(v.getType());
  });
}

struct SummaVerifyHostCodePass
    : summa::impl::SummaVerifyHostCodeBase<SummaVerifyHostCodePass> {
  void runOnOperation() override {
    bool failed = false;
    summa::walkHostCode(getOperation(), [&](Operation *op) {
      StringRef why;
      if (isa<gpu::MemcpyOp>(op))
        return; // the runtime's mgpuMemcpy
      if (isa<memref::AllocaOp>(op))
        why = "allocates on the host stack";
      else if (isa<memref::GetGlobalOp>(op) &&
               !llvm::all_of(op->getUsers(), [&](Operation *user) {
                 auto copy = dyn_cast<gpu::MemcpyOp>(user);
                 return copy && copy.getSrc() == op->getResult(0);
               }))
        why = "takes a host global (other than as a copy's source)";
      else if (isa<linalg::LinalgOp>(op))
        why = "was not turned into a GPU kernel";
      else if (accessesBufferContents(op))
        why = "reads or writes a buffer on the host";
      else
        return;
      op->emitError() << "'" << op->getName() << "' " << why
                      << ", but with --target=cuda every buffer is device "
                         "memory: only kernels and runtime calls may touch it";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
