//===- Passes.td - summa transformation passes ---------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_TRANSFORMS_PASSES_TD
#define SUMMA_DIALECT_SUMMA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SummaAssignLayouts : Pass<"summa-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Give every tensor value a 2.5D layout on a [q, q, d] grid";
  let description = [{
    Declares `summa.grid @<grid-name> shape = [q, q, d]` (or reuses the one
    there) and gives every tensor value of every `func.func` a
    `#summa.layout` (DESIGN.md §1): activations `[[depth, row], [col]]`,
    weights `[[row], [col]]` (replicated over depth), biases `[[col]]`.

    How an argument's role is known: an argument attribute
    `summa.role = "activation" | "weight" | "bias"` wins. Without it, a
    rank-2 argument used as the right-hand operand of a `linalg.matmul` is a
    weight, another rank-2 argument is an activation (it carries the token
    dimension), and a rank-1 argument takes the layout of the dimension it is
    broadcast along. Layouts then propagate through `linalg` structured ops
    by their indexing maps, forwards from operands and backwards into
    `tensor.empty`/`linalg.fill` accumulators.

    The result is written as attributes: `summa.layout` on function
    arguments and results, `summa.layouts` (one per result) on ops. Sizes the
    grid cannot divide and ops it cannot lay out are diagnosed at their
    location.
  }];
  let options = [
    ListOption<"grid", "grid", "int64_t",
               "grid shape q,q,d (q*q*d ranks)">,
    Option<"gridName", "grid-name", "std::string", "\"grid\"",
           "symbol name of the summa.grid to create or use">
  ];
  let dependentDialects = ["::mlir::summa::SummaDialect"];
}

def SummaPrintLayouts : Pass<"summa-print-layouts", "::mlir::ModuleOp"> {
  let summary = "Print the layout and local tile of every value";
  let description = [{
    After `summa-assign-layouts`, prints one line per function argument, op
    result and function result: the value, its global type, its layout and
    its local tile type on the grid. The IR is left unchanged.
  }];
}

def SummaPartition : Pass<"summa-partition", "::mlir::ModuleOp"> {
  let summary = "Rewrite laid-out functions into SPMD form on local tiles";
  let description = [{
    Uses the layouts of `summa-assign-layouts`: argument, result and value
    types become the local tile types; `linalg.matmul` between an activation
    and a weight becomes `summa.matmul` (2.5D SUMMA); elementwise
    `linalg.generic` ops, fills and empties act on local tiles unchanged.
    A reduction over split dimensions (LayerNorm statistics, a softmax
    denominator) computes a partial result per rank, completed by a
    `summa.all_reduce` over exactly the split axes with the kind of its
    combiner. `linalg.index` of a split loop dimension is offset by the
    rank's block so that masks see global indices. `tensor.expand_shape` and
    `tensor.collapse_shape` reshape the local tile.

    With `remarks`, every collective it introduces is reported as a remark
    at the location of the op that needs it.
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", "false",
           "report each collective as a remark at the op that causes it">
  ];
  let dependentDialects = ["::mlir::summa::SummaDialect",
                           "::mlir::arith::ArithDialect"];
}

def SummaExpandMatmul : Pass<"summa-expand-matmul", "::mlir::ModuleOp"> {
  let summary = "Expand summa.matmul into its SUMMA steps";
  let description = [{
    Form `ab` on a `[q, q, d]` grid becomes an `scf.for` over the `q` steps:
    step `t` broadcasts the lhs panel of column `t` along each row
    (`axes = [col] root = t`), the rhs panel of row `t` along each column
    (`axes = [row] root = t`), and accumulates their local `linalg.matmul`.
    Form `abt` broadcasts the rhs panel of row `t` along each column,
    multiplies locally and reduces the partial product along the row to
    column `t`; form `atb` broadcasts the lhs panel of column `t` along each
    row, multiplies locally, reduces along the column to row `t`, and
    finishes with an all-reduce over `[depth]`.

    With `fuse-shared` (on by default), products of one form in one block
    that broadcast the same operand (the lhs for `ab` and `atb`, the rhs for
    `abt`) — the Q, K and V projections of one activation, or their weight
    gradients — share one loop, which broadcasts that panel once per step.
  }];
  let options = [
    Option<"fuseShared", "fuse-shared", "bool", "true",
           "expand products that broadcast the same operand in one loop">
  ];
  let dependentDialects = ["::mlir::summa::SummaDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SummaCombineCollectives
    : Pass<"summa-combine-collectives", "::mlir::ModuleOp"> {
  let summary = "Merge independent all-reduces on the same group into one";
  let description = [{
    Two `summa.all_reduce` ops of one block on the same grid, axes, kind and
    element type, where the first's result is not used before the second,
    become one all-reduce of the two tiles packed into one vector (the
    LayerNorm backward's two sums over the hidden dimension, the bias
    gradients of a layer): one collective, one latency, the same bytes.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def SummaDecomposeAggregates
    : Pass<"summa-decompose-aggregates", "::mlir::ModuleOp"> {
  let summary = "Decompose aggregate linalg ops (linalg.softmax) into generics";
  let description = [{
    Replaces every op implementing `linalg::AggregatedOpInterface`
    (`linalg.softmax`) by the structured ops it is made of, so that the CPU
    lowering can turn them into loops. Runs after partitioning: the softmax
    is then local.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SummaDifferentiate : Pass<"summa-differentiate", "::mlir::ModuleOp"> {
  let summary = "Derive the backward of a forward loss function";
  let description = [{
    For the function `function` (its first result is the loss), writes a
    function `<function>_grad` with the same arguments that returns the loss
    and the gradient of every argument whose `summa.role` is "weight" or
    "bias" (in argument order), computed in reverse mode on tensors:
    `linalg.matmul` A·B gets A·Bᵀ and Aᵀ·B products (so the backward is
    2.5D SUMMA too), every other structured op (elementwise, broadcast,
    reductions with a sum combiner, contractions written as generics) gets
    generics built from the derivative of its scalar body,
    `tensor.expand_shape`/`collapse_shape` the inverse reshape. With
    `sgd-lr` > 0 it also returns every parameter updated by plain SGD,
    marked with `summa.updates`. An op it cannot differentiate is an error
    naming the op.
  }];
  let options = [
    Option<"function", "function", "std::string", "\"\"",
           "the forward function (default: the only public one)">,
    Option<"sgdLr", "sgd-lr", "double", "0.0",
           "also return the parameters after one SGD step of this rate">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // SUMMA_DIALECT_SUMMA_TRANSFORMS_PASSES_TD
