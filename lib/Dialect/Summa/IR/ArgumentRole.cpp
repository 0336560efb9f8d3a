//===- ArgumentRole.cpp - the role of an entry argument ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Reads `summa.role`: the one place its spellings are parsed.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::summa;

ArgumentRole mlir::summa::parseArgumentRole(StringRef s) {
  return llvm::StringSwitch<ArgumentRole>(s)
      .Case("activation", ArgumentRole::Activation)
      .Case("weight", ArgumentRole::Weight)
      .Case("bias", ArgumentRole::Bias)
      .Case("replicated", ArgumentRole::Replicated)
      .Case("state", ArgumentRole::State)
      .Default(ArgumentRole::Unknown);
}

StringRef mlir::summa::stringifyArgumentRole(ArgumentRole role) {
  switch (role) {
  case ArgumentRole::Activation:
    return "activation";
  case ArgumentRole::Weight:
    return "weight";
  case ArgumentRole::Bias:
    return "bias";
  case ArgumentRole::Replicated:
    return "replicated";
  case ArgumentRole::State:
    return "state";
  case ArgumentRole::None:
  case ArgumentRole::Unknown:
    break;
  }
  return {};
}

ArgumentRole mlir::summa::getArgumentRole(func::FuncOp func, unsigned index) {
  auto attr = func.getArgAttrOfType<StringAttr>(index, kRoleAttrName);
  return attr ? parseArgumentRole(attr.getValue()) : ArgumentRole::None;
}
