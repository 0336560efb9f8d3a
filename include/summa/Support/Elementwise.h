//===- Elementwise.h - a tensor mapped element by element -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_SUPPORT_ELEMENTWISE_H
#define SUMMA_SUPPORT_ELEMENTWISE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// `lhs + rhs` element by element (two float tensors of one type): a
/// parallel linalg.generic.
inline Value addElements(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto type = cast<RankedTensorType>(lhs.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{lhs, rhs}, ValueRange{init},
             ArrayRef<AffineMap>{id, id, id}, parallel,
             [](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(
                   nb, nl,
                   arith::AddFOp::create(nb, nl, args[0], args[1]).getResult());
             })
      .getResult(0);
}

} // namespace mlir::summa

#endif // SUMMA_SUPPORT_ELEMENTWISE_H
