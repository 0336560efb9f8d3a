//===- LiftConstants.cpp - large constants as arguments ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-lift-constants (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/LiftConstants.h"
#include "summa/Support/Functions.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMALIFTCONSTANTS
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

/// The name a lifted constant's argument gets.
static std::string constantName(ElementsAttr value, unsigned index) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return resource.getRawHandle().getKey().str();
  return "constant" + std::to_string(index);
}

LogicalResult
mlir::summa::liftConstants(ModuleOp module, int64_t minElements,
                           SmallVectorImpl<LiftedConstant> *lifted) {
  for (func::FuncOp func : definedFunctions(module)) {
    if (func.isPrivate())
      continue;
    SmallVector<arith::ConstantOp> constants;
    func.walk([&](arith::ConstantOp cst) {
      auto type = dyn_cast<RankedTensorType>(cst.getType());
      auto value = dyn_cast<ElementsAttr>(cst.getValue());
      if (!type || !value || !isa<FloatType>(type.getElementType()) ||
          !type.hasStaticShape() || type.getNumElements() < minElements)
        return;
      if (auto dense = dyn_cast<DenseElementsAttr>(value);
          dense && dense.isSplat())
        return;
      constants.push_back(cst);
    });
    unsigned index = 0;
    for (arith::ConstantOp cst : constants) {
      unsigned position = func.getNumArguments();
      MLIRContext *ctx = func.getContext();
      auto value = cast<ElementsAttr>(cst.getValue());
      std::string name = constantName(value, index++);
      NamedAttrList attrs;
      attrs.set(kNameAttrName, StringAttr::get(ctx, name));
      if (failed(func.insertArgument(position, cst.getType(),
                                     attrs.getDictionary(ctx), cst.getLoc())))
        return failure();
      if (lifted)
        lifted->push_back({name, value});
      cst.getResult().replaceAllUsesWith(func.getArgument(position));
      cst.erase();
    }
  }
  return success();
}

namespace {
struct SummaLiftConstantsPass
    : summa::impl::SummaLiftConstantsBase<SummaLiftConstantsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(liftConstants(getOperation(), minElements)))
      signalPassFailure();
  }
};
} // namespace
