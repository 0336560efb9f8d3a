//===- Elementwise.h - a tensor mapped element by element -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_SUPPORT_ELEMENTWISE_H
#define SUMMA_SUPPORT_ELEMENTWISE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::summa {

/// `value` (a ranked tensor) mapped element by element into a tensor of
/// the same shape with elements of type `to`: a parallel linalg.generic
/// whose body yields `map(element)`.
inline Value
mapElements(OpBuilder &b, Location loc, Value value, Type to,
            function_ref<Value(OpBuilder &, Location, Value)> map) {
  auto type = cast<RankedTensorType>(value.getType());
  RankedTensorType result = type.clone(to);
  Value init = tensor::EmptyOp::create(b, loc, result.getShape(), to);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{result}, ValueRange{value}, ValueRange{init},
             ArrayRef<AffineMap>{id, id}, parallel,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, map(nb, nl, args[0]));
             })
      .getResult(0);
}

} // namespace mlir::summa

#endif // SUMMA_SUPPORT_ELEMENTWISE_H
