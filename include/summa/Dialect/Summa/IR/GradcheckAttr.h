//===- GradcheckAttr.h - what --gradcheck checks a step against -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `summa.gradcheck` on a training step that summa-differentiate derived:
//
//   {loss = @f, gradients = @g, params = array<i64: 2, 3, ...>}
//
// `@f` computes the loss (its result 0) from the step's leading arguments,
// `@g` takes the same arguments and returns the loss and the gradient of
// each argument `params` lists, in that order, by the derivative rules the
// step was derived with. summa-compile builds both into the program's
// unpartitioned reference, and its --gradcheck compares the gradients with
// central finite differences of the loss (docs/Training.md). The dialect's
// verifier checks the attribute's form where it is read.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_GRADCHECKATTR_H
#define SUMMA_DIALECT_SUMMA_IR_GRADCHECKATTR_H

#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace mlir::summa {

/// The functions and parameters `summa.gradcheck` names.
struct GradcheckFunctions {
  StringRef loss;
  StringRef gradients;
  SmallVector<int64_t> params;
};

/// Whether `attr` has the form of `summa.gradcheck`.
inline bool isGradcheckAttr(Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  return dict && dict.size() == 3 && dict.getAs<FlatSymbolRefAttr>("loss") &&
         dict.getAs<FlatSymbolRefAttr>("gradients") &&
         dict.getAs<DenseI64ArrayAttr>("params");
}

/// The functions `step`'s `summa.gradcheck` names, if it has one.
inline std::optional<GradcheckFunctions>
getGradcheckFunctions(func::FuncOp step) {
  Attribute attr = step->getAttr(kGradcheckAttrName);
  if (!attr || !isGradcheckAttr(attr))
    return std::nullopt;
  auto dict = cast<DictionaryAttr>(attr);
  GradcheckFunctions functions;
  functions.loss = dict.getAs<FlatSymbolRefAttr>("loss").getValue();
  functions.gradients = dict.getAs<FlatSymbolRefAttr>("gradients").getValue();
  llvm::append_range(functions.params,
                     dict.getAs<DenseI64ArrayAttr>("params").asArrayRef());
  return functions;
}

/// Sets `step`'s `summa.gradcheck`.
inline void setGradcheckAttr(func::FuncOp step, func::FuncOp loss,
                             func::FuncOp gradients,
                             ArrayRef<unsigned> params) {
  MLIRContext *ctx = step.getContext();
  SmallVector<int64_t> numbers(params.begin(), params.end());
  NamedAttrList entries;
  entries.append("loss", FlatSymbolRefAttr::get(loss.getSymNameAttr()));
  entries.append("gradients",
                 FlatSymbolRefAttr::get(gradients.getSymNameAttr()));
  entries.append("params", DenseI64ArrayAttr::get(ctx, numbers));
  step->setAttr(kGradcheckAttrName, entries.getDictionary(ctx));
}

} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_IR_GRADCHECKATTR_H
