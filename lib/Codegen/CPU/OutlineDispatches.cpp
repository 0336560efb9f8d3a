//===- OutlineDispatches.cpp - local loop nests as functions ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-outline-dispatches: each op with regions at the top level
// of a function becomes a call of a small private function that holds it;
// functions with the same body are shared.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAOUTLINEDISPATCHES
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

/// Ops per block of a glue function.
static constexpr int64_t kGlueBlock = 64;

/// Whether `op` is a loop nest to outline: a linalg op or structured
/// control flow holding one.
static bool isDispatchRoot(Operation *op) {
  return op->getNumRegions() > 0 &&
         (isa<linalg::LinalgOp>(op) ||
          isa<scf::ForOp, scf::ParallelOp, scf::ForallOp, scf::WhileOp,
              scf::IfOp>(op));
}

/// Whether `v` is a constant that the dispatch function recomputes rather
/// than takes as an argument.
static bool isSinkable(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->getNumRegions() == 0 && def->getNumOperands() == 0 &&
         matchPattern(v, m_Constant());
}

namespace {
struct SummaOutlineDispatchesPass
    : public summa::impl::SummaOutlineDispatchesBase<
          SummaOutlineDispatchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // The printed body of each dispatch function, to its name.
    llvm::StringMap<StringAttr> bodies;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || func->hasAttr(summa::kDispatchAttrName) ||
          !func.getBody().hasOneBlock())
        continue;
      int64_t counter = 0;
      bool outlined = false;
      for (Operation &op :
           llvm::make_early_inc_range(func.getBody().front().getOperations()))
        if (isDispatchRoot(&op)) {
          outline(&op, func, symbols, bodies, counter);
          outlined = true;
        }
      // Also when every dispatch was one another function made.
      if (outlined)
        markGlue(func);
    }
  }

  /// What is left of a function whose loop nests went into dispatch
  /// functions is straight-line glue (allocations, calls): LLVM compiles it
  /// without optimisation, in time linear in its length.
  static void markGlue(func::FuncOp func) {
    Builder b(func.getContext());
    SmallVector<Attribute> flags;
    if (auto old = func->getAttrOfType<ArrayAttr>("passthrough"))
      llvm::append_range(flags, old.getValue());
    for (StringRef flag : {"noinline", "optnone"})
      if (!llvm::is_contained(flags, b.getStringAttr(flag)))
        flags.push_back(b.getStringAttr(flag));
    func->setAttr("passthrough", b.getArrayAttr(flags));
    // The body goes into blocks of at most kGlueBlock ops, after an entry
    // block that holds only a branch: the conversion of the signature to
    // LLVM inserts the unpacking of each argument in the entry block, and
    // each insertion into a long block costs a renumbering of its ops; and
    // LLVM's instruction selection works on one block at a time, in time
    // that grows faster than linearly with its length. Split from the last
    // chunk to the first, so that each split moves one chunk.
    Block *entry = &func.getBody().front();
    SmallVector<Operation *> starts;
    for (auto [n, op] : llvm::enumerate(entry->getOperations()))
      if (n % kGlueBlock == 0)
        starts.push_back(&op);
    for (Operation *start : llvm::reverse(starts)) {
      Block *rest = entry->splitBlock(start);
      OpBuilder builder = OpBuilder::atBlockEnd(entry);
      cf::BranchOp::create(builder, func.getLoc(), rest);
    }
  }

  void outline(Operation *root, func::FuncOp parent, SymbolTable &symbols,
               llvm::StringMap<StringAttr> &bodies, int64_t &counter) {
    MLIRContext *ctx = root->getContext();
    llvm::SetVector<Value> captured;
    for (Value operand : root->getOperands())
      captured.insert(operand);
    getUsedValuesDefinedAbove(root->getRegions(), captured);
    SmallVector<Value> arguments, sunk;
    for (Value v : captured)
      (isSinkable(v) ? sunk : arguments).push_back(v);

    OpBuilder b(ctx);
    auto type = FunctionType::get(ctx, ValueRange(arguments).getTypes(),
                                  root->getResultTypes());
    auto dispatch =
        func::FuncOp::create(b, root->getLoc(), "summa_dispatch", type);
    Block *body = dispatch.addEntryBlock();
    b.setInsertionPointToStart(body);
    IRMapping map;
    map.map(arguments, body->getArguments());
    for (Value v : sunk)
      b.clone(*v.getDefiningOp(), map);
    Operation *copy = b.clone(*root, map);
    func::ReturnOp::create(b, root->getLoc(), copy->getResults());
    dispatch.setPrivate();
    dispatch->setAttr(summa::kDispatchAttrName, UnitAttr::get(ctx));
    dispatch->setAttr("llvm.linkage",
                      LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
    dispatch->setAttr("passthrough",
                      b.getArrayAttr({b.getStringAttr("noinline")}));

    // The same body, up to the name: one function.
    std::string text;
    llvm::raw_string_ostream os(text);
    dispatch->print(os, OpPrintingFlags().printGenericOpForm());
    auto [it, inserted] = bodies.try_emplace(text, StringAttr());
    if (inserted) {
      std::string wanted =
          (parent.getSymName() + "_dispatch_" + Twine(counter++)).str();
      dispatch.setName(wanted);
      symbols.insert(dispatch, parent->getIterator());
      it->second = dispatch.getSymNameAttr();
    } else {
      dispatch.erase();
    }
    b.setInsertionPoint(root);
    auto call = func::CallOp::create(b, root->getLoc(), it->second,
                                     root->getResultTypes(), arguments);
    root->replaceAllUsesWith(call.getResults());
    root->erase();
  }
};
} // namespace
