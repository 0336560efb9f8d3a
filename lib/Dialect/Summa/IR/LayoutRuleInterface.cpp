//===- LayoutRuleInterface.cpp - the rules of an op -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"

#include "mlir/IR/BuiltinTypes.h"

#include <numeric>

using namespace mlir;
using namespace mlir::summa;

LayoutRuleState::~LayoutRuleState() = default;
PartitionState::~PartitionState() = default;
DerivativeState::~DerivativeState() = default;
SplitModelState::~SplitModelState() = default;
DimClassState::~DimClassState() = default;

int64_t DimClassState::dimSize(Value v, int64_t d) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && d < type.getRank() ? type.getDimSize(d) : 0;
}

int64_t DimClassState::chunkOf(int64_t whole, int64_t offset, int64_t size) {
  if (ShapedType::isDynamic(whole) || ShapedType::isDynamic(offset) ||
      ShapedType::isDynamic(size) || size == whole)
    return 0;
  return std::gcd(whole, std::gcd(offset, size));
}

std::optional<DataMove> mlir::summa::getDataMove(Operation *op) {
  auto move = dyn_cast_or_null<DataMoveOpInterface>(op);
  if (!move)
    return std::nullopt;
  return move.getDataMove();
}

LocalWork mlir::summa::getLocalWork(Operation *op,
                                    function_ref<int64_t(Value)> bytesOf,
                                    int64_t divisor) {
  auto work = dyn_cast_or_null<LocalWorkOpInterface>(op);
  if (!work)
    return {};
  return work.getLocalWork(bytesOf, divisor);
}

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.cpp.inc"
