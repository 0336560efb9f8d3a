//===- Passes.td - summa's passes on linalg ------------------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Passes that read and write upstream linalg/tensor IR only, before any
// summa op exists: the input's normal form, constants as arguments, the
// training step's backward.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_PASSES_TD
#define SUMMA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SummaLiftConstants : Pass<"summa-lift-constants", "::mlir::ModuleOp"> {
  let summary = "Turn large tensor constants into function arguments";
  let description = [{
    Exporters leave a model's parameters as tensor constants by default
    (torch-mlir's `dense_resource` blobs). Kept as constants, every rank
    holds each of them whole. This pass turns every non-splat floating-point
    tensor constant of at least `min-elements` elements in a public function
    into a new trailing argument of that function, named by `summa.name`
    (the resource's key, or `constant<N>`), with no role: the layout
    solver infers it from the data flow, like any argument (a transposed
    `[out, in]` weight gets `[[col], [row]]`). The callers of the function
    are not updated: run it on the entry of a model.
  }];
  let options = [
    Option<"minElements", "min-elements", "int64_t", "256",
           "lift constants with at least this many elements">
  ];
}

def SummaDistinctResults : Pass<"summa-distinct-results"> {
  let summary = "Give each buffer a function returns a result of its own";
  let description = [{
    Runs on buffers, right before `buffer-results-to-out-params`, which
    turns every returned buffer into an output argument written by the
    function and cannot take one buffer returned twice (a program that
    returns the same tensor as two results, or a training step whose two
    updates are one value after CSE). Every returned buffer that an
    earlier operand of the same `func.return` already returns is copied
    into a new buffer, and the copy is returned in its place:

    ```mlir
    return %u, %u : memref<8xf32>, memref<8xf32>
    // becomes
    %c = memref.alloc() : memref<8xf32>
    memref.copy %u, %c : memref<8xf32> to memref<8xf32>
    return %u, %c : memref<8xf32>, memref<8xf32>
    ```

    An unranked buffer returned twice is an error (no size to allocate).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def SummaNormalize : Pass<"summa-normalize", "::mlir::ModuleOp"> {
  let summary = "Bring exporters' forms into the forms summa lays out best";
  let description = [{
    Runs before `summa-assign-layouts` on the program to be partitioned.
    Exporters collapse `[batch, heads]` into one dimension before a
    `linalg.batch_matmul` (torch-mlir does so for every attention) and
    expand it again after; a dimension that merges two split dimensions has
    no block layout. This pass writes each `linalg.batch_matmul` as a
    `linalg.generic` and folds the reshapes around batched contractions into
    them by expanding their iteration space (upstream's reshape fusion by
    expansion), so that the batch and the heads stay separate dimensions,
    each keeping its own split. A `linalg.matmul` of narrower inputs into a
    wider C (bf16 x bf16 into f32, as torch-mlir writes a bf16 linear
    layer; i8 into i32) takes its inputs widened first, by elementwise
    generics with the product's own casts (`extf`; `extsi`, or `extui` for
    `cast_unsigned`), so that `summa.matmul`, its panels and the runtime's
    GEMM see one element type: the same values, accumulated the same way
    (the panels travel at C's width). Nothing else changes: elementwise ops
    and the 2-D `linalg.matmul`s of linear layers keep their form.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
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

def SummaFuseElementwise : Pass<"summa-fuse-elementwise"> {
  let summary = "Fuse elementwise producers into their consumers (on tensors)";
  let description = [{
    The local ops of a partitioned program, before bufferization, grouped
    the way IREE forms dispatch regions: an elementwise `linalg.generic`
    whose only use is another structured op is fused into it (upstream's
    elementwise fusion), so chains of elementwise ops become one loop nest
    and a producer of a reduction (LayerNorm's mean and variance, softmax's
    sums) is computed inside the reduction, without a buffer between them.
    A producer with several uses stays (no recomputation), and nothing is
    fused into a contraction, so that every product still goes to the
    library GEMMs (`convert-summa-to-runtime`,
    `convert-contractions-to-runtime`). The CPU and the GPU lowering run it;
    `--check`'s reference lowering does not.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SummaTileAttention : Pass<"summa-tile-attention"> {
  let summary = "Compute attention one block of query rows at a time";
  let description = [{
    Finds, among the local ops of a partitioned program on tensors, each
    attention however the exporter decomposed it: a contraction of
    probabilities with values (P·V) whose probabilities come, through
    elementwise ops and row reductions only (scale, mask, softmax), from
    one contraction of queries with keys (Q·Kᵀ), none of which is used
    elsewhere. Such an attention is tiled (upstream's tile-and-fuse): P·V
    over its batch dimensions (batch, heads) by one and its query rows by
    blocks of at most `tile-elements` / keys rows, with the ops between and
    Q·Kᵀ fused into the loop, so that the `[rows, keys]` scores of one head
    and one block of rows are all that exists at a time, never the scores of
    every head. The two products stay contractions that
    `convert-contractions-to-runtime` sends to the GEMM. Reshapes of
    size-one dimensions on the way are folded into their readers and a row
    reduction written as `[rows, 1]` through a constant index writes
    `[rows]`, so that tiling takes them. Values of the softmax that are
    also read after P·V (a training step's backward reads the
    probabilities) are computed whole by the loop as well, a block at a
    time (tile-and-fuse yields them); an attention whose values are read
    before it, or whose probabilities go through a reshape that merges
    dimensions, is left as it is; one whose heads are split into groups
    before P·V (grouped-query attention) is tiled through the split. With `remarks`, each P·V says which path
    it took. The CPU lowering runs it; `--check`'s reference does not.
  }];
  let options = [
    Option<"tileElements", "tile-elements", "int64_t", "16384",
           "elements of the scores computed at a time (rows x keys)">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "report, at each product of probabilities with values, whether "
           "it was tiled as an attention and why not">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
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
    `params=floats` the parameters are every floating-point tensor argument
    not marked as an activation (exports carry names, not roles). With a
    learning rate (`lr`, or `sgd-lr` for plain SGD) it also returns every
    parameter after one optimizer step (include/summa/Transforms/Optimizer.h),
    as torch.optim computes it: `optimizer=sgd|momentum|adamw`, AdamW's
    decoupled `weight-decay` (on matrices, or `decay=all`), global-norm
    clipping (`clip-norm`, as clip_grad_norm_), a learning-rate `schedule`
    (nanoGPT's get_lr: `warmup`, then cosine or linear down to `min-lr` at
    `decay-steps`). The optimizer's state (`<param>.momentum_buffer`,
    `<param>.exp_avg`, `<param>.exp_avg_sq`) and the step counter (`step`)
    become arguments (zeros unless given) and results; every updated value
    is marked with `summa.updates` of its argument, so the driver's
    `--steps` feeds them back; the learning rate and the gradients' norm
    are results named `lr` and `grad_norm`. With `accumulate=K` the
    function is taken as one micro-batch of b rows: the step's batch
    arguments (the tensor arguments that are not parameters, with the first
    one's leading dimension) take K·b rows, and the step runs the forward
    and backward of its K micro-batches one after the other (micro-batch k:
    rows k, k + K, ..., so a batch split over the grid is sliced where it
    lies; one micro-batch's activations are dead before the next begins),
    seeds each loss with 1/K, sums the gradients and updates once; the loss
    it returns is the mean of the micro-batches'. With `recompute=layers` the forward is cut
    where one value alone carries the batch on (the residual stream after
    a sub-layer with a product); the backward of each segment but the last
    first computes the segment's forward again from that value, so only the
    cut values and one segment's activations are alive at a time
    (torch.utils.checkpoint per block). `recompute=attention` computes
    again only what lies between a product of two batch values (Q·Kᵀ) and
    the next one that reads it (P·V): the scores and probabilities of every
    head are not kept (Megatron's selective recompute). With
    `precision=bf16` every product of the step (the forward's GEMMs and
    batched GEMMs and those of the backward; include/summa/Transforms/
    Precision.h) reads bf16 operands, accumulates in f32 and rounds its
    result to bf16, as torch.autocast's bf16 matmuls and their autograd;
    the parameters, the gradients' sums, the loss, the normalisations and
    the optimizer with its state stay f32. The step carries
    `summa.gradcheck = {loss = @<function>, gradients = @G, params =
    array<i64: ...>}` (unless `gradcheck=false`): the forward, a function G
    with the forward's arguments that returns its loss and the gradient of
    each argument of `params` by the same derivative rules (the step itself
    when it returns exactly these, else `<function>_gradients`), from which
    the compiled program's `--gradcheck` compares the gradients with central
    finite differences of the loss (docs/Training.md, "Checking a
    derivative"). An op it cannot differentiate is an error naming the op.
  }];
  let options = [
    Option<"function", "function", "std::string", "\"\"",
           "the forward function (default: the only public one)">,
    Option<"sgdLr", "sgd-lr", "double", "0.0",
           "also return the parameters after one SGD step of this rate">,
    Option<"optimizer", "optimizer", "std::string", "\"sgd\"",
           "the update: sgd, momentum (torch.optim.SGD with momentum) or "
           "adamw (torch.optim.AdamW)">,
    Option<"lr", "lr", "double", "0.0",
           "the learning rate (the peak of a schedule); 0: no update unless "
           "sgd-lr">,
    Option<"momentum", "momentum", "double", "0.9", "optimizer=momentum">,
    Option<"beta1", "beta1", "double", "0.9", "AdamW's beta1">,
    Option<"beta2", "beta2", "double", "0.999", "AdamW's beta2">,
    Option<"eps", "eps", "double", "1e-8", "AdamW's eps">,
    Option<"weightDecay", "weight-decay", "double", "0.0",
           "AdamW's decoupled weight decay">,
    Option<"decay", "decay", "std::string", "\"matrices\"",
           "which parameters weight decay applies to: matrices (rank >= 2, "
           "as nanoGPT and Hugging Face) or all">,
    Option<"clipNorm", "clip-norm", "double", "0.0",
           "clip the gradients' global L2 norm to this (0: no clipping), as "
           "torch.nn.utils.clip_grad_norm_">,
    Option<"schedule", "schedule", "std::string", "\"constant\"",
           "the learning rate by step: constant, cosine or linear (nanoGPT's "
           "get_lr: linear warmup, then down to min-lr at decay-steps)">,
    Option<"warmup", "warmup", "int64_t", "0", "warmup steps">,
    Option<"decaySteps", "decay-steps", "int64_t", "0",
           "the step the schedule reaches min-lr at">,
    Option<"minLr", "min-lr", "double", "0.0", "the schedule's floor">,
    Option<"accumulate", "accumulate", "int64_t", "1",
           "gradient accumulation over K micro-batches: the function is "
           "one micro-batch; the step's batch arguments hold K of them "
           "(micro-batch k: rows k, k+K, ...), their forwards and backwards "
           "run one after the other, one update of the mean gradient "
           "(PyTorch's (loss / K).backward() K times, then step())">,
    Option<"recompute", "recompute", "std::string", "\"none\"",
           "activation recompute: none; layers (the backward of each "
           "segment between values that alone carry the batch, a layer's "
           "attention or MLP, computes its forward again from that value "
           "instead of keeping its activations); or attention (only the "
           "scores and probabilities between Q.K^T and P.V are computed "
           "again)">,
    Option<"precision", "precision", "std::string", "\"f32\"",
           "the products' precision: f32 (the function's own), or bf16 "
           "(every GEMM of the forward and the backward reads bf16 operands, "
           "accumulates in f32 and rounds its result to bf16, as "
           "torch.autocast; master weights and optimizer state stay f32)">,
    Option<"gradients", "gradients", "bool", "true",
           "also return the gradients (a training loop does not need them)">,
    Option<"gradcheck", "gradcheck", "bool", "true",
           "mark the step for the compiled program's --gradcheck: "
           "`summa.gradcheck` names the forward (the loss) and a function "
           "that returns the loss and the parameters' gradients by the same "
           "rules (the step itself when it returns exactly those, else "
           "<function>_gradients, derived beside it without the optimizer, "
           "the precision or the accumulation)">,
    Option<"params", "params", "std::string", "\"roles\"",
           "which arguments are parameters: roles (summa.role \"weight\" "
           "or \"bias\"), or floats (every floating-point tensor argument "
           "whose summa.role is not \"activation\" or \"replicated\": "
           "an export whose arguments are the model's parameters, as "
           "export_torch.py --buffers-as-constants writes)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SummaSinkRepeats : Pass<"summa-sink-repeats"> {
  let summary = "Compute on elements before repeating them, not after";
  let description = [{
    A repeat is a linalg op that only copies its one input into a result of
    higher rank, each element to several places: `repeat_kv`'s broadcast of
    a grouped-query attention's key and value heads to the query heads, as
    Hugging Face writes it and torch-mlir exports it. Where the repeated
    tensor is then only reshaped (`tensor.collapse_shape`), transposed
    (`linalg.transpose`) and mapped element by element (a `linalg.generic`
    of parallel loops reading it and scalars only; SDPA's scaling of the
    keys), each op used once, the chain is rebuilt with the transposes and
    the elementwise ops applied to the input and one repeat last:

    ```mlir
    %r = linalg.generic ... ins(%k : tensor<2x2x12x8xf32>)
           outs(... : tensor<2x2x2x12x8xf32>)        // repeat_kv
    %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
    %t = linalg.transpose ins(%c) ... permutation = [0, 1, 3, 2]
    %s = linalg.generic ... ins(%t) { mulf %in, %scale }
    // becomes
    %t = linalg.transpose ins(%k) ... permutation = [0, 1, 3, 2]
    %s = linalg.generic ... ins(%t) { mulf %in, %scale }
    %r = linalg.generic ... ins(%s : tensor<2x2x8x12xf32>)
           outs(... : tensor<2x2x2x8x12xf32>)
    %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
    ```

    The same values, each computed once. summa-derive-generation runs it
    on the forward first: a KV cache is kept before the ops that repeat its
    elements, so that it holds each key head once (not once per query head
    of its group).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SummaDeriveGeneration
    : Pass<"summa-derive-generation", "::mlir::ModuleOp"> {
  let summary = "Derive a KV-cached decode step and a prefill from a causal "
                "LM's forward";
  let description = [{
    For the forward `function` of a causal language model as it is exported
    (token ids `[B, S]` of an integer type, its first argument; logits
    `[B, S, V]`, its first result; the weights as arguments), writes two
    steps, each the forward specialised to a block of tokens at a position:

    * `<function>_prefill(ids [B, P], weights...)` (P = `prompt`): the
      prompt at position 0, into caches that start as zeros. Results, named
      as the decode step's arguments: `logits` of the last prompt token
      `[B, 1, V]`, the greedy next `token` `[B, 1]`, its position `pos`
      (P), every cache `cache.<k>` (all S positions) and the `generated` ids
      `[B, S]` (the prompt and the token).
    * `<function>_decode(token [B, 1], pos, weights..., caches...,
      generated)`: one token per sequence at `pos` (a 0-d i64 tensor); its
      keys and values written into the caches at `pos`
      (`tensor.insert_slice` at a dynamic offset), its attention over all S
      cached positions. Results: its logits, the next token, pos + 1, the
      caches and the generated ids, each but the logits updating its
      argument (`summa.updates`): `--steps N` generates N tokens. Marked
      `summa.weight_stationary`; its caches have `summa.role = "state"`.

    With `next-token=false` neither step chooses the token nor keeps the
    generated ids: their results are the logits, the position and the
    caches, and the decode step's `token` is an input the driver sets (the
    sampler of `summa-compile --generate`, which reads the logits where
    they are split).

    With `left-padding=true` both steps take `start` [B] (after the
    position): rows of different lengths left-padded to one, as Hugging
    Face's generate() takes them. A row's positions (a position embedding's
    rows, a rotary table) count from its start; where the scores meet a
    causal mask, the keys before its start are masked.

    The sequence dimension is found from the token ids: a dimension is
    along the sequence where its size follows the ids' through the ops.
    Tensors computed from positions alone (an `arange`, a causal mask, a
    rotary table, a position embedding) keep their S positions and are
    sliced at the block's position where they meet its tokens; an
    attention's keys are recognised where a product relates two sequence
    dimensions (its right-hand side's is the key's), its values where
    scores computed from the keys weigh them. A cache holds the value
    before the ops that only move or repeat its elements. A forward that
    mixes positions any other way (a bidirectional encoder, whose scores no
    position mask reaches; a window or a concatenation along the sequence)
    is refused at the op that does it. docs/Generation.md.
  }];
  let options = [
    Option<"function", "function", "std::string", "\"\"",
           "the forward function (default: the only public one)">,
    Option<"prompt", "prompt", "int64_t", "0",
           "the prompt's length P (1 <= P < S): the prefill takes [batch, P] "
           "ids">,
    Option<"nextToken", "next-token", "bool", "true",
           "the steps choose the next token (greedy argmax) and keep the "
           "generated ids; false: they return the logits, the position and "
           "the caches, and the driver samples the token from the logits "
           "(summa-compile --generate)">,
    Option<"leftPadding", "left-padding", "bool", "false",
           "both steps take `start` [B] (i64, after the position): the slot "
           "of each row's first token, rows left-padded to one length as "
           "Hugging Face pads them; a row's positions count from its start "
           "and no query weighs the keys before it">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // SUMMA_TRANSFORMS_PASSES_TD
