//===- MergeKernelModules.cpp - every kernel in one gpu.module --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-merge-kernel-modules. gpu-kernel-outlining gives each
// kernel a gpu.module of its own; gpu-module-to-binary then runs LLVM's
// NVPTX back end and ptxas once per module (a process per kernel: most of
// a model's compile time), and the program loads one binary per kernel.
// Here the symbols of every module move into one, renamed after the module
// they came from, and the references to them follow.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAMERGEKERNELMODULES
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

namespace {

/// What must agree for two modules' code to be compiled as one: the
/// targets, the offloading handler and the discardable attributes.
bool sameCompilation(gpu::GPUModuleOp a, gpu::GPUModuleOp b) {
  return a.getTargetsAttr() == b.getTargetsAttr() &&
         a.getOffloadingHandlerAttr() == b.getOffloadingHandlerAttr() &&
         a->getDiscardableAttrDictionary() == b->getDiscardableAttrDictionary();
}

/// `base`, or `base_N` for the first N that neither `table` nor `inner`
/// (the symbols still in the module being moved) holds.
StringAttr freeName(MLIRContext *context, StringRef base, SymbolTable &table,
                    SymbolTable &inner, Operation *self) {
  std::string name = base.str();
  for (unsigned n = 0;; ++n) {
    Operation *taken = inner.lookup(name);
    if (!table.lookup(name) && (!taken || taken == self))
      return StringAttr::get(context, name);
    name = (base + "_" + Twine(n)).str();
  }
}

struct SummaMergeKernelModulesPass
    : summa::impl::SummaMergeKernelModulesBase<SummaMergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(top.getOps<gpu::GPUModuleOp>());
    if (modules.size() < 2)
      return;
    gpu::GPUModuleOp first = modules.front();
    bool refused = false;
    for (gpu::GPUModuleOp m : ArrayRef(modules).drop_front())
      if (!sameCompilation(first, m)) {
        m.emitError() << "cannot merge kernel module @" << m.getSymName()
                      << " with @" << first.getSymName()
                      << ": their targets, offloading handlers or attributes "
                         "differ";
        refused = true;
      }
    if (refused)
      return signalPassFailure();

    // The merged module, where the first was, with its attributes.
    MLIRContext *context = &getContext();
    auto merged = cast<gpu::GPUModuleOp>(first->cloneWithoutRegions());
    merged.getBodyRegion().emplaceBlock();
    SymbolTable topTable(top);
    merged.setSymName("summa_kernels");
    topTable.insert(merged, Block::iterator(first)); // uniqued
    SymbolTable table(merged);

    // Each module's symbols move in under new names; `renamed` maps
    // @module::@symbol to @merged::@new.
    DenseMap<Attribute, Attribute> renamed;
    for (gpu::GPUModuleOp m : modules) {
      SymbolTable inner(m);
      SmallVector<Operation *> ops = llvm::map_to_vector(
          m.getBody()->getOperations(), [](Operation &op) { return &op; });
      unsigned symbols = llvm::count_if(
          ops, [](Operation *op) { return isa<SymbolOpInterface>(op); });
      for (Operation *op : ops) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (symbol) {
          StringAttr old = symbol.getNameAttr();
          std::string base =
              symbols == 1 ? m.getSymName().str()
                           : (m.getSymName() + "_" + old.getValue()).str();
          StringAttr name = freeName(context, base, table, inner, op);
          // Uses inside the module follow the new name.
          if (name != old && failed(inner.rename(op, name))) {
            op->emitError() << "cannot rename @" << old.getValue() << " to @"
                            << name.getValue();
            return signalPassFailure();
          }
          renamed[SymbolRefAttr::get(m.getSymNameAttr(),
                                     {FlatSymbolRefAttr::get(old)})] =
              SymbolRefAttr::get(merged.getSymNameAttr(),
                                 {FlatSymbolRefAttr::get(name)});
        }
        op->moveBefore(merged.getBody(), merged.getBody()->end());
        if (symbol)
          table.insert(op);
      }
    }

    // The references outside the modules (launches) to the new names.
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
      auto it = renamed.find(ref);
      if (it == renamed.end())
        return std::nullopt;
      return it->second;
    });
    top->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false, /*replaceTypes=*/false);
      return WalkResult::advance();
    });
    for (gpu::GPUModuleOp m : modules)
      topTable.erase(m);
  }
};

} // namespace
