//===- summa-opt.cpp - summa optimizer driver -------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the summa dialect, passes and pipelines registered.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::summa::registerSummaPasses();
  mlir::summa::registerSummaConversionPasses();
  mlir::summa::registerSummaPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::summa::SummaDialect>();
  mlir::summa::registerBufferizableOpInterfaceExternalModels(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "summa optimizer driver\n", registry));
}
