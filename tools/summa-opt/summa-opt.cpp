//===- summa-opt.cpp - summa optimizer driver -------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the summa dialect, passes and pipelines registered, and
// the test-only passes of test/lib.
//
//===----------------------------------------------------------------------===//

#include "summa/InitAllSumma.h"
#include "summa/InitAllSummaTranslations.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::summa::test {
void registerTestGradcheckPass();
void registerTestWrongDerivativePass();
} // namespace mlir::summa::test

int main(int argc, char **argv) {
  mlir::summa::registerAllSummaPasses();
  // Test-only passes (test/lib), as mlir-opt registers upstream's.
  mlir::summa::test::registerTestGradcheckPass();
  mlir::summa::test::registerTestWrongDerivativePass();
  mlir::DialectRegistry registry;
  mlir::summa::registerAllSummaDialects(registry);
  // The lowering pipelines compile kernels (gpu-module-to-binary).
  mlir::summa::registerAllSummaTranslations(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "summa optimizer driver\n", registry));
}
