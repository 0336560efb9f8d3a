//===- LayoutRuleInterface.td - the rules of an op ---------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The interfaces through which the passes and the planner ask an op for its
// rules, one per concern: its layout rule (summa-assign-layouts), its local
// rewrite (summa-partition), its derivative (summa-differentiate) and its
// place in the planner's 1D and data-parallel split model. Upstream ops get
// them as external models, attached per op family in one file each
// (lib/Dialect/Summa/OpRules/, registerOpRuleExternalModels); an op without
// the interface a pass needs is refused by name.
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

def Summa_PartitionRuleOpInterface : OpInterface<"PartitionRuleOpInterface"> {
  let cppNamespace = "::mlir::summa";
  let description = [{
    How summa-partition rewrites an op whose operands and results are laid
    out: its results become local tiles, and the op its local form (offsets
    and sizes of the tile, masks, the relayouts it needs). The rule reaches
    the partitioner's state through `PartitionState`.
  }];
  let methods = [
    InterfaceMethod<[{
        Rewrites this op to compute its local tiles; fails with a
        diagnostic at the op.
      }],
      "::llvm::LogicalResult", "partition",
      (ins "::mlir::summa::PartitionState &":$state)>,
  ];
}

def Summa_DerivativeRuleOpInterface : OpInterface<"DerivativeRuleOpInterface"> {
  let cppNamespace = "::mlir::summa";
  let description = [{
    The reverse-mode rule of an op for summa-differentiate: from the
    adjoints of its results (`DerivativeState::getAdjoint`), adds to the
    adjoints of its active operands (`accumulate`), building at the
    state's builder. Linalg structured ops have the differentiator's own
    rule (their bodies, forward mode), not this interface.
  }];
  let methods = [
    InterfaceMethod<[{
        Accumulates the adjoints of this op's active operands; fails with a
        diagnostic at the op.
      }],
      "::llvm::LogicalResult", "differentiate",
      (ins "::mlir::summa::DerivativeState &":$state)>,
  ];
}

def Summa_SplitModelOpInterface : OpInterface<"SplitModelOpInterface"> {
  let cppNamespace = "::mlir::summa";
  let description = [{
    The op in the planner's model of the 1D Megatron and data-parallel
    strategies (lib/Planner/SplitModel.cpp): from the splits of its
    operands (`SplitModelState::getSplit`: a dimension split P ways, none,
    or a partial sum), the splits of its results, and the collectives
    (`materialize`, `replicate`) it needs first. Its bytes and flops are
    counted from the splits by the planner. An op without it that touches
    tensors computes replicated (its operands gathered).
  }];
  let methods = [
    InterfaceMethod<[{
        Gives this op's results their splits through `state`.
      }],
      "::llvm::LogicalResult", "modelSplit",
      (ins "::mlir::summa::SplitModelState &":$state)>,
  ];
}

def Summa_DimClassOpInterface : OpInterface<"DimClassOpInterface"> {
  let cppNamespace = "::mlir::summa";
  let description = [{
    Which dimensions of the op's operands and results index the same space
    (a loop of a linalg op, a reshape's dimension and the one it merges
    into, a slice's source and result dimensions), and which chunks its
    slices, insertions and concatenations cut them into: the dimension
    classes summa-assign-layouts factors so that each chunk stays inside
    every tile (lib/Dialect/Summa/Transforms/DimClasses.h). An op without
    it relates nothing.
  }];
  let methods = [
    InterfaceMethod<[{
        Relates this op's dimensions through `state`.
      }],
      "void", "relateDimensions",
      (ins "::mlir::summa::DimClassState &":$state)>,
  ];
}

def Summa_DataMoveOpInterface : OpInterface<"DataMoveOpInterface"> {
  let cppNamespace = "::mlir::summa";
  let description = [{
    Whether the op only moves the elements of one of its operands: its
    result holds that operand's elements, reshaped, reordered, sliced,
    repeated or converted to another element type, and nothing computed
    from them (a reshape, a cast, a slice, a transpose, a copy, a
    broadcast, a generic that yields its one input). Every pass and
    analysis that follows a value through such ops (a weight to the product
    it reaches, an argument to what holds it, a repeat to sink, a cache's
    dimensions) asks this, and nothing else (`summa::getDataMove`).
  }];
  let methods = [
    InterfaceMethod<[{
        The move this op makes, or none where it computes something.
      }],
      "std::optional<::mlir::summa::DataMove>", "getDataMove", (ins)>,
  ];
}

def Summa_LocalWorkOpInterface : OpInterface<"LocalWorkOpInterface"> {
  let cppNamespace = "::mlir::summa";
  let description = [{
    What one execution of the op costs on its local tiles, for the local
    terms of the planner's time model (docs/Planner.md, "Time"): the bytes
    a loop nest reads and writes and its iterations, or the flops and bytes
    of a local GEMM. `bytesOf` gives a tensor's local size, `divisor` the
    ranks the op's loops are split over (the unpartitioned IR of the 1D and
    DP models). An op without it costs nothing locally (a view, a
    collective: the communication term, a GEMM counted apart).
  }];
  let methods = [
    InterfaceMethod<[{
        This op's local work.
      }],
      "::mlir::summa::LocalWork", "getLocalWork",
      (ins "::llvm::function_ref<int64_t(::mlir::Value)>":$bytesOf,
           "int64_t":$divisor)>,
  ];
}

#endif // SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_TD
