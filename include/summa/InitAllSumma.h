//===- InitAllSumma.h - what every summa tool registers ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one list of registrations of the summa tools (summa-opt, summa-compile,
// summa-plan, the fuzz target), on the model of upstream's InitAllDialects.h:
// a tool calls the functions for what it does instead of keeping a list.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_INITALLSUMMA_H
#define SUMMA_INITALLSUMMA_H

#include "summa/Codegen/Passes.h"
#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Dialect/TMTensor/IR/TMTensor.h"
#include "summa/Pipelines/Pipelines.h"
#include "summa/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

namespace mlir::summa {

/// The dialects a model may use (all of upstream's, with their extensions)
/// and summa's, with the external models summa's pipelines need (the op
/// rules among them), and the
/// tm_tensor ops of torch-mlir's exports (convert-tm-tensor-to-linalg).
inline void registerAllSummaDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<SummaDialect, tm_tensor::TMTensorDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  // Each op's rules (layout, partition, derivative, planner models, data
  // moves), from its family file under lib/Dialect/Summa/OpRules/.
  registerOpRuleExternalModels(registry);
}

/// Every pass by name (summa-opt, --mlir-print-ir-after=NAME) and the summa
/// pipelines.
inline void registerAllSummaPasses() {
  registerAllPasses();
  registerSummaLinalgPasses();
  registerSummaPasses();
  registerSummaConversionPasses();
  registerSummaCodegenPasses();
  registerSummaPipelines();
}

} // namespace mlir::summa

#endif // SUMMA_INITALLSUMMA_H
