//===- PanelReuseOptions.h - --reuse-panels, --memory-budget ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The command-line options of panel reuse (summa-reuse-panels), spelled and
// checked the same way by summa-compile and summa-plan. summa-opt takes the
// same setting as the pipeline option `reuse-panels=BYTES`.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TOOLS_PANELREUSEOPTIONS_H
#define SUMMA_TOOLS_PANELREUSEOPTIONS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::summa {

/// --reuse-panels and --memory-budget=BYTES (which implies --reuse-panels).
/// Define one as a static next to the tool's other options.
struct PanelReuseOptions {
  PanelReuseOptions(llvm::cl::OptionCategory &category, const char *reuseHelp)
      : reuse("reuse-panels", llvm::cl::desc(reuseHelp),
              llvm::cl::cat(category)),
        budget("memory-budget",
               llvm::cl::desc("bytes per rank the kept panels may take "
                              "(implies --reuse-panels; default: no bound)"),
               llvm::cl::init(-1), llvm::cl::cat(category)) {}

  /// The budget for summa-reuse-panels (-1: no bound), or nullopt when
  /// neither option was given; `error` is set for a negative budget.
  std::optional<int64_t> budgetOrNone(std::string &error) const {
    if (budget.getNumOccurrences() && budget < 0) {
      error = ("--memory-budget must not be negative (got " +
               llvm::Twine(budget.getValue()) + ")")
                  .str();
      return std::nullopt;
    }
    if (reuse || budget.getNumOccurrences())
      return budget.getValue();
    return std::nullopt;
  }

  llvm::cl::opt<bool> reuse;
  llvm::cl::opt<int64_t> budget;
};

} // namespace mlir::summa

#endif // SUMMA_TOOLS_PANELREUSEOPTIONS_H
