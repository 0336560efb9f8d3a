//===- TestPlantKernelBug.cpp - a planted miscompilation --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-compile --test-plant-kernel-bug: a pass that breaks the kernels'
// loop nests on purpose, so that a test shows --check's reference does not
// share their code (it is lowered without them). The tool adds it through
// CompileOptions::testAfterKernelLoops; no product library holds it.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct PlantKernelBugPass
    : public PassWrapper<PlantKernelBugPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PlantKernelBugPass)
  StringRef getArgument() const override { return "summa-test-plant-bug"; }
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      scf::ParallelOp last;
      func.walk([&](scf::ParallelOp loop) {
        if (!loop->getParentOfType<scf::ParallelOp>())
          last = loop;
      });
      if (!last)
        return;
      memref::StoreOp store;
      last.walk([&](memref::StoreOp s) {
        if (!store && isa<FloatType>(s.getValueToStore().getType()))
          store = s;
      });
      if (!store)
        return;
      OpBuilder b(store);
      auto type = cast<FloatType>(store.getValueToStore().getType());
      Value one = arith::ConstantOp::create(b, store.getLoc(),
                                            b.getFloatAttr(type, 1.0));
      Value wrong = arith::AddFOp::create(b, store.getLoc(),
                                          store.getValueToStore(), one);
      store.getValueMutable().assign(wrong);
    });
  }
};
} // namespace

namespace mlir::summa::test {
/// The last scf.parallel of each function (a kernel's loop nest) stores its
/// first float value plus one.
std::unique_ptr<Pass> createTestPlantKernelBugPass() {
  return std::make_unique<PlantKernelBugPass>();
}
} // namespace mlir::summa::test
