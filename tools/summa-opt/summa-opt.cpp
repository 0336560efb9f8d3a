//===- summa-opt.cpp - summa optimizer driver -------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the summa dialect, passes and pipelines registered.
//
//===----------------------------------------------------------------------===//

#include "summa/InitAllSumma.h"
#include "summa/InitAllSummaTranslations.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::summa::registerAllSummaPasses();
  mlir::DialectRegistry registry;
  mlir::summa::registerAllSummaDialects(registry);
  // The lowering pipelines compile kernels (gpu-module-to-binary).
  mlir::summa::registerAllSummaTranslations(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "summa optimizer driver\n", registry));
}
