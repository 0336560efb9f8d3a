//===- LayoutRuleInterface.td - how an op relates layouts ---*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one home of every op's layout rule: summa-assign-layouts asks each op,
// through this interface, which layouts its operands and results want.
// Upstream dialects get it as external models (registerLayoutRuleExternal
// Models); an op without it that touches tensors is refused by name.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_TD
#define SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_TD

include "mlir/IR/OpBase.td"

def Summa_LayoutRuleOpInterface : OpInterface<"LayoutRuleOpInterface"> {
  let cppNamespace = "::mlir::summa";
  let description = [{
    How an op relates the layouts (`#summa.layout`) of its operands and
    results. summa-assign-layouts calls `propagateLayouts` on every op, in
    program order, until nothing changes: the rule reads the layouts its
    values already have from the `LayoutRuleState` and says which layout
    each operand wants (`want`) and each result has (`define`). Where a
    value already has another layout, the solver reconciles the two (see
    docs/Layouts.md); the rule never inserts communication itself.

    Anchors (the SUMMA contractions) run alone in the solver's first phase,
    so that the products fix the layouts of the program before any other
    rule does.
  }];
  let methods = [
    InterfaceMethod<[{
        Gives layouts to this op's operands and results through `state`;
        fails, with a diagnostic at the op, only for a form the rule cannot
        lay out at all.
      }],
      "::llvm::LogicalResult", "propagateLayouts",
      (ins "::mlir::summa::LayoutRuleState &":$state)>,
    InterfaceMethod<[{
        Whether this op's rule runs in the solver's first phase (a SUMMA
        contraction).
      }],
      "bool", "isLayoutAnchor", (ins), [{}], [{ return false; }]>,
  ];
}

#endif // SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_TD
