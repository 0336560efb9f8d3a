//===- Functions.h - The functions of a module that have a body -*- C++ -*-===//
//
// Every summa pass and tool works on the functions a module defines and
// leaves declarations (runtime functions, externals) alone; the tools and
// summa-differentiate take one of them as their entry.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_SUPPORT_FUNCTIONS_H
#define SUMMA_SUPPORT_FUNCTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::summa {

/// The functions `module` defines (not its declarations), in order.
inline auto definedFunctions(ModuleOp module) {
  return llvm::make_filter_range(
      module.getOps<func::FuncOp>(),
      [](func::FuncOp func) { return !func.isExternal(); });
}

/// The defined functions that `name` selects: the one of that name or,
/// where `name` is empty, every public one. A tool's entry is found when
/// exactly one is selected.
inline SmallVector<func::FuncOp> selectFunctions(ModuleOp module,
                                                 StringRef name) {
  SmallVector<func::FuncOp> selected;
  for (func::FuncOp func : definedFunctions(module))
    if (name.empty() ? func.isPublic() : func.getSymName() == name)
      selected.push_back(func);
  return selected;
}

} // namespace mlir::summa

#endif // SUMMA_SUPPORT_FUNCTIONS_H
