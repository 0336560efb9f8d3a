//===- PrintLayouts.cpp - show the layouts of every value -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Support/Functions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAPRINTLAYOUTS
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

/// Prints "<type> <layout> local <tile type>" for one value.
static void printEntry(raw_ostream &os, Type type, Attribute attr,
                       Operation *scope) {
  os << type;
  auto layout = dyn_cast_or_null<LayoutAttr>(attr);
  if (!layout) {
    os << "  (no layout)\n";
    return;
  }
  os << "  " << layout;
  auto tensor = cast<RankedTensorType>(type);
  if (GridOp grid = lookupGrid(scope, layout.getGrid())) {
    FailureOr<SmallVector<int64_t>> local =
        getLocalShape(tensor.getShape(), layout, grid);
    if (succeeded(local))
      os << "  local " << tensor.clone(*local);
    else
      os << "  local <not divisible>";
  }
  os << "\n";
}

namespace {
struct SummaPrintLayoutsPass
    : summa::impl::SummaPrintLayoutsBase<SummaPrintLayoutsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    raw_ostream &os = llvm::outs();
    AsmState state(module);
    for (func::FuncOp func : definedFunctions(module)) {
      os << "layouts of @" << func.getSymName() << ":\n";
      for (BlockArgument arg : func.getArguments()) {
        os << "  ";
        arg.printAsOperand(os, state);
        os << " : ";
        printEntry(os, arg.getType(),
                   func.getArgAttr(arg.getArgNumber(), kLayoutAttrName), func);
      }
      func.walk([&](Operation *op) {
        auto layouts = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
        for (OpResult res : op->getResults()) {
          if (!isa<RankedTensorType>(res.getType()))
            continue;
          os << "  ";
          res.printAsOperand(os, state);
          os << " = " << op->getName() << " : ";
          printEntry(os, res.getType(),
                     layouts ? layouts[res.getResultNumber()] : Attribute(),
                     func);
        }
      });
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
        os << "  result #" << i << " : ";
        printEntry(os, func.getResultTypes()[i],
                   func.getResultAttr(i, kLayoutAttrName), func);
      }
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
