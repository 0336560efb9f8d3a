//===- LayoutRuleInterface.cpp - how an op relates layouts ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"

using namespace mlir;
using namespace mlir::summa;

LayoutRuleState::~LayoutRuleState() = default;

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.cpp.inc"
