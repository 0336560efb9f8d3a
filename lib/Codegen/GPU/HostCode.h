//===- HostCode.h - what runs on the host with --target=cuda ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The passes of --target=cuda look at host code only: ops of functions that
// are not inside a gpu.module, and not inside a gpu.launch body.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_CODEGEN_GPU_HOSTCODE_H
#define SUMMA_LIB_CODEGEN_GPU_HOSTCODE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::summa {

/// Calls `fn` on every op of the module's host functions, outside kernels,
/// in pre-order (an op before the ops nested in it).
inline void walkHostCode(ModuleOp module, function_ref<void(Operation *)> fn) {
  for (auto function : module.getOps<FunctionOpInterface>())
    function->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      fn(op);
      return WalkResult::advance();
    });
}

/// The host code's ops of type OpTy, in pre-order: what a pass rewrites,
/// collected before it starts.
template <typename OpTy>
SmallVector<OpTy> collectHostOps(ModuleOp module) {
  SmallVector<OpTy> ops;
  walkHostCode(module, [&](Operation *op) {
    if (auto typed = dyn_cast<OpTy>(op))
      ops.push_back(typed);
  });
  return ops;
}

/// The check of the passes' `block-size` option (CUDA's limit of threads
/// per block): an error at the module naming `pass` when it is out of
/// [1, 1024].
inline LogicalResult checkBlockSize(ModuleOp module, StringRef pass,
                                    int64_t blockSize) {
  if (blockSize >= 1 && blockSize <= 1024)
    return success();
  return module.emitError()
         << pass << ": block-size must be in [1, 1024], got " << blockSize;
}

/// A pass of the GPU lowering with a `block-size` option; Base is its
/// tablegen'd base. The option is checked (checkBlockSize, named after the
/// pass) before Derived::runOnHostCode runs.
template <typename Derived, template <typename> class Base>
struct BlockSizePass : Base<Derived> {
  using Base<Derived>::Base;
  void runOnOperation() final {
    if (failed(checkBlockSize(this->getOperation(), this->getArgument(),
                              this->blockSize)))
      return this->signalPassFailure();
    static_cast<Derived *>(this)->runOnHostCode();
  }
};

} // namespace mlir::summa

#endif // SUMMA_LIB_CODEGEN_GPU_HOSTCODE_H
