//===- ArgumentRole.cpp - what an entry argument is -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Reads `summa.role`, `summa.init` and `summa.updates`; their spellings are
// the ODS enums' (the dialect's verifier refuses any other).
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

using namespace mlir;
using namespace mlir::summa;

std::optional<ArgumentRole> mlir::summa::getArgumentRole(func::FuncOp func,
                                                         unsigned index) {
  auto attr = func.getArgAttrOfType<StringAttr>(index, kRoleAttrName);
  return attr ? symbolizeArgumentRole(attr.getValue()) : std::nullopt;
}

std::string mlir::summa::listArgumentRoles() {
  std::string list;
  for (uint32_t v = 1; v <= getMaxEnumValForArgumentRole(); ++v) {
    if (v > 1)
      list += v == getMaxEnumValForArgumentRole() ? " or " : ", ";
    list += stringifyArgumentRole(static_cast<ArgumentRole>(v));
  }
  return list;
}

std::optional<InitKind> mlir::summa::getInitKind(func::FuncOp func,
                                                 unsigned index) {
  auto attr = func.getArgAttrOfType<StringAttr>(index, kInitAttrName);
  return attr ? symbolizeInitKind(attr.getValue()) : std::nullopt;
}

BlockArgument mlir::summa::getUpdatedArgument(func::FuncOp func,
                                              unsigned index) {
  auto updates = func.getResultAttrOfType<IntegerAttr>(index, kUpdatesAttrName);
  if (!updates || updates.getInt() < 0 ||
      updates.getInt() >= func.getNumArguments())
    return {};
  return func.getArgument(updates.getInt());
}
