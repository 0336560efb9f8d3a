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

def SummaShardOptimizerState
    : Pass<"summa-shard-optimizer-state", "::mlir::ModuleOp"> {
  let summary = "Split the optimizer state over depth (ZeRO stage 1 along depth)";
  let description = [{
    Runs after `summa-assign-layouts`. A 2.5D grid keeps a weight (and
    each element of its optimizer state) on every depth replica. This pass
    splits the state over depth instead: each update (a `linalg.generic`,
    elementwise over the parameter, that reads an argument of role `state`:
    Adam's moments, a momentum buffer) takes the parameter's layout with
    `depth` added to one dimension the grid divides, and so does its state.
    The update reads its slice of the parameter and of the gradient (local
    slices), and the updated parameter is all-gathered over depth into the
    layout it is returned in. A sum of every element of the gradient (the
    global norm of clipping) reads the same slice, its partial sum then
    completed over depth as well: the gradient's only reader is its
    depth-split slice, and `summa-partition` turns its depth sum (an
    all-reduce, or the depth sum of an `A^T.B` product) into a
    reduce-scatter.

    Optimizer bytes per rank shrink by `d`; the gradient's depth all-reduce
    becomes a reduce-scatter and the parameter costs one all-gather over
    depth: the bytes of the all-reduce it replaces. Results are the same
    as without the pass up to the order of floating-point sums. A
    parameter no dimension of which the grid divides keeps its state whole.
  }];
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

    Only all-reduces of at most `max-bytes` are packed: a larger one is
    bandwidth-bound, and packing it would cost a copy of its bytes in and
    another out (a weight gradient's depth all-reduce stays in place).

    Before packing, a scalar `a + b` of two sum all-reduces (each used
    there alone) becomes one all-reduce, over the axes of both, of the
    local sum in which each term counts on coordinate 0 only of the axes
    the other is reduced over and it is not: partial sums are the same on
    the replicas of the axes they are not reduced over. A gradient norm's
    running sum (clip-norm: one squared norm per parameter, each reduced
    over the axes its gradient is split over) is then one all-reduce.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"1 << 20",
           "pack only all-reduces of at most this many bytes">
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def SummaOverlap : Pass<"summa-overlap", "::mlir::ModuleOp"> {
  let summary = "Overlap SUMMA steps' collectives with the previous step's GEMM";
  let description = [{
    Runs on bufferized SUMMA loops (`scf.for %t = 0 to q`, after
    One-Shot Bufferize and deallocation) and software-pipelines them with
    asynchronous collectives and two buffers per panel:

    - a panel broadcast of step `t` (a buffer allocated in the loop, filled
      by a copy of a tile defined outside it, `summa.broadcast ... root = %t`)
      is started one step early, as `summa.async_broadcast` into the other
      of two buffers, so that step `t+1`'s panels move while step `t`
      multiplies; `summa.wait` comes just before step `t` needs them;
    - a partial-product reduce of step `t` (`summa.reduce ... root = %t` of
      the A·Bᵀ / Aᵀ·B forms) becomes `summa.async_reduce`; the ops that
      read its result (the owner's accumulation) move to step `t+1`, after
      its GEMM, behind `summa.wait`; the partial products get two buffers.

    The result is a prologue (step 0's broadcasts), the steady loop, and the
    last step and epilogue peeled, for any `q >= 2`. A loop with `q = 1` has
    no collectives left (they fold away) and is not touched, nor is a loop
    whose collectives do not have this shape (it stays synchronous; with
    `remarks` each such collective is reported with the reason). A
    deferred accumulation must touch only memory that the rest of the step
    does not, or its reduce stays synchronous.
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", "false",
           "report each overlapped loop, and each step collective that stays "
           "synchronous with the reason, as a remark">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def SummaReusePanels : Pass<"summa-reuse-panels", "::mlir::ModuleOp"> {
  let summary = "Keep a SUMMA loop's broadcast panels for a later loop that needs them";
  let description = [{
    After `summa-expand-matmul`, on tensors. Two SUMMA loops of one block
    (`scf.for %t = 0 to q`) that broadcast the same tile over the same group
    step for step (`summa.broadcast %x ... root = %t`, `%x` defined outside
    both) move the same panels twice: the forward's activation panels of
    `Y = X·W` are exactly what the weight gradient `dW = Xᵀ·dY` broadcasts
    again, and a weight's panels are what `dX = dY·Wᵀ` broadcasts again. With
    this pass the first loop also stores its `q` panels in a stack
    (`tensor<q x tile>`, `tensor.insert_slice` per step) and the later loops
    read step `t`'s panel from it (`tensor.extract_slice`) instead of
    broadcasting it: `q` broadcasts fewer per later loop and rank, for
    `q * tile` bytes of memory per rank held from the first loop to the last.

    `memory-budget` bounds the bytes per rank the stacks may take together
    (-1: no bound); tiles whose panels are broadcast again most often are
    kept first (every kept byte saves the same number of broadcast bytes per
    later loop), then in program order. The planner (`summa-plan
    --memory-budget`) runs this pass to count both choices.
  }];
  let options = [
    Option<"memoryBudget", "memory-budget", "int64_t", "-1",
           "bytes per rank the kept panels may take (-1: no bound)">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "report each kept panel set and each reuse as a remark">
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::scf::SCFDialect"];
}

def SummaLowerScatter : Pass<"summa-lower-scatter", "::mlir::ModuleOp"> {
  let summary = "Lower summa.scatter on buffers to loops";
  let description = [{
    Every `summa.scatter` on buffers becomes a loop nest: over the batch
    dimensions in order (so the updates combine in batch order, as the op
    says), and inside it over the slice dimensions. Each update loads its
    index columns, skips the slice when an index lies outside its
    dimension, and otherwise stores the combiner of the update and the
    current element. The slice loops are innermost on the CPU (each update
    reads and writes contiguous rows, which LLVM vectorises).

    With `parallel` (the GPU), the slice dimensions are an `scf.parallel`
    that holds the loop over the batch: every thread owns a column of the
    original and applies the updates to it in batch order, with no atomics,
    so the result is the same bit for bit on every run.
  }];
  let options = [
    Option<"parallel", "parallel", "bool", "false",
           "slice dimensions as scf.parallel around the batch loop (GPU)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // SUMMA_DIALECT_SUMMA_TRANSFORMS_PASSES_TD
