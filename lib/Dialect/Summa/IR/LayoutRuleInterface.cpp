//===- LayoutRuleInterface.cpp - the rules of an op -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"

using namespace mlir;
using namespace mlir::summa;

LayoutRuleState::~LayoutRuleState() = default;
PartitionState::~PartitionState() = default;
DerivativeState::~DerivativeState() = default;
SplitModelState::~SplitModelState() = default;

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.cpp.inc"
