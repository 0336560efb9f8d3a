//===- Passes.td - summa conversion passes -------------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_CONVERSION_PASSES_TD
#define SUMMA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTMTensorToLinalg : Pass<"convert-tm-tensor-to-linalg",
                                   "::mlir::ModuleOp"> {
  let summary = "Rewrite torch-mlir's tm_tensor ops as linalg on tensors";
  let description = [{
    The import step of every summa tool (`buildImportPipeline`): the
    `tm_tensor` ops of a torch-mlir export become upstream ops that the
    partitioner, the `--check` reference and both targets take.

    `tm_tensor.scan` along a dimension of `n` elements becomes two
    `linalg.generic`s: the first element of the scan (the input's first
    slice, inclusive; the accumulator, exclusive) broadcast along the
    dimension, then a fold over a new reduction dimension `j` that applies
    the scan's region to `out[.., i, ..]` and `in[.., j, ..]` where
    `1 <= j <= i` (inclusive) or `j < i` (exclusive), in order of `j`, so
    that each element is combined exactly as the sequential scan combines
    it. The accumulator result is the output's last slice
    (`tensor.extract_slice`). The fold does `n²/2` combines per row where a
    loop would do `n`; exporters scan position ids and masks (`[batch,
    seq]`), where that is nothing beside the model's GEMMs, and a generic
    is an op the partitioner lays out like any other.

    A scan along a dimension of dynamic size is an error with its location.

    `tm_tensor.sort` (torch.sort, torch.topk: a mixture-of-experts router
    picking its experts) along a dimension of `n` elements becomes one
    `linalg.generic` that counts, for every element, the elements that come
    before it (those the comparator region puts first, and those it orders
    neither or both ways with a lower index: a stable sort), and one per
    output that takes, at position `p`, the sum over the dimension of the
    element whose count is `p` (the only one that matches). `n²` comparisons
    per row: a router sorts a handful of experts per token, and generics
    are ops the partitioner and summa-differentiate take like any other (the
    derivative of the values is the permutation back).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertSummaToRuntime : Pass<"convert-summa-to-runtime",
                                 "::mlir::ModuleOp"> {
  let summary = "Lower bufferized summa collectives and matmuls to runtime calls";
  let description = [{
    Replaces the memref forms of the summa collectives and `linalg.matmul`
    on memrefs of f32/f64 by `func.call`s of the runtime C ABI
    (runtime/include/summa/Runtime/SummaRuntime.h), declared once in
    RuntimeABI.cpp. Buffers are passed as (aligned pointer as `index`,
    element offset); strides must be unit in the innermost dimension.
    Remaining `summa.matmul` ops (not expanded) and tensor-form collectives
    are errors. `summa.async_broadcast` / `summa.async_reduce` call the
    runtime's `...Start` functions, `summa.wait` calls `summaRtWait`, and
    `!summa.token` becomes the runtime's request handle (`i64`), also where
    `scf` loops carry it.

    A `linalg.matmul` whose C was last written by a `linalg.fill` of zero,
    with nothing in between touching C's buffer (no view of it, no call),
    overwrites C instead (accumulate = 0, BLAS/cuBLAS beta = 0) and the fill
    is erased: one pass over C fewer on the CPU, one kernel fewer on the
    GPU. A GEMM in a SUMMA step loop accumulates into the fill before the
    loop as before.

    With `library-matmuls=false`, `linalg.matmul` stays (it becomes loops
    with the other local ops): the lowering of `--check`'s reference, which
    uses no library and runs on host memory on every backend.
  }];
  let options = [
    Option<"libraryMatmuls", "library-matmuls", "bool", "true",
           "linalg.matmul on buffers becomes the runtime's GEMM "
           "(summaRtMatmul)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConvertGemmEpiloguesToRuntime : Pass<"convert-gemm-epilogues-to-runtime",
                                         "::mlir::ModuleOp"> {
  let summary = "Lower a GEMM and its elementwise epilogue to one runtime call";
  let description = [{
    A `linalg.matmul` on buffers (A·B, A·Bᵀ or Aᵀ·B) that overwrites a
    zero-filled C (as convert-summa-to-runtime would lower it with
    beta = 0), whose C is read by one elementwise `linalg.generic` (the
    epilogue) and nothing else, becomes one `summaRtMatmulEpilogue` at the
    epilogue: D = act(op(A)·op(B) + R + bias). What the epilogue's body
    computes first from C is taken into the call:

    - `C + bias`, with `bias` a vector along C's columns (indexing map
      `(i, j) -> (j)`): the runtime's bias (cuBLASLt's `BIAS` epilogue on
      the GPU; on the CPU the rows of D start as the bias and the GEMM
      accumulates onto them, in place of BLAS's clearing of C);
    - `+ R`, with `R` another [m, n] input read at the same element: the
      residual (the GEMM's C with beta = 1);
    - with `gelu`, then GeLU (tanh form): the activation (cuBLASLt's
      `GELU_BIAS`). The body is recognised as GeLU by evaluating it: it
      must be a function of that one value, made of arith and math ops,
      equal to 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) at 64 points of
      [-6, 6] within 1e-6 (which tells it from GeLU's erf form).

    If that is all the body computes, the epilogue goes and the call writes
    its output; otherwise the call writes C and the epilogue keeps the rest
    of its body, reading C for the sum it no longer computes. The call goes
    where the GEMM was (A and B may be freed right after it); the epilogue's
    output, if allocated later, is allocated before it.

    A GEMM that accumulates over a loop (the SUMMA steps when q > 1) from a
    zero fill before the loop, and is the loop's only op to touch C, takes
    the sums as C's initial value instead: the fill becomes a
    `linalg.generic` writing `bias + R` into C, the steps accumulate onto
    it, and the epilogue keeps the rest (none when it wrote C onto itself;
    GeLU stays in the epilogue).

    An epilogue that is not elementwise, a C that something else reads or
    that outlives the epilogue (not its own allocation, and not written
    back), a bias or residual computed or written between the GEMM (or the
    fill) and the epilogue leave both as they were.

    Not part of `--check`'s reference lowering. With `remarks`, a remark at
    each matmul says what was taken into its call or why nothing was.
  }];
  let options = [
    Option<"gelu", "gelu", "bool", "false",
           "take GeLU (tanh form) into the call as its activation (the GPU "
           "target: cuBLASLt's GELU_BIAS epilogue)">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "report at each linalg.matmul what went into its runtime call">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def SummaPackArguments : Pass<"summa-pack-arguments", "::mlir::ModuleOp"> {
  let summary = "Pass a function's buffers as one array of data pointers";
  let description = [{
    The named functions, whose arguments are memrefs of static shape and
    identity layout (the tensors of a compiled program, contiguous and
    row-major), take instead one `!llvm.ptr`: an array of the buffers' data
    pointers, in the order of the arguments (the `void **` that the
    runtime's driver hands to a program). Each memref is rebuilt in the
    function from its pointer and its static shape. The driver calls the
    function directly, and a model with many tensors does not become a
    call with thousands of scalar arguments (memref descriptors unpacked),
    whose instruction selection in LLVM grows faster than linearly.

    ```mlir
    func.func @model(%x: memref<8x64xf32>, %y: memref<8x64xf32>)
    // becomes
    func.func @model(%buffers: !llvm.ptr)   // %x from buffers[0], %y from buffers[1]
    ```
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "the functions to rewrite">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// --target=cuda: every local op of a host function becomes a GPU kernel
//===----------------------------------------------------------------------===//

def SummaMaterializeSplats : Pass<"summa-materialize-splats", "::mlir::ModuleOp"> {
  let summary = "Turn splat tensor constants into fills of empty tensors";
  let description = [{
    For `--target=cuda`, before bufferization: an `arith.constant` of a
    splat tensor (`dense<0.0> : tensor<8x8xf32>`, a mask of `true`) becomes
    `linalg.fill` of a `tensor.empty`. Bufferization then allocates it in
    device memory, fills it with a kernel and frees it, where a constant
    would have become a host global (`memref.get_global`) that a kernel
    cannot read. Constants that are not splats stay, and
    `summa-verify-host-code` refuses them at their location.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertContractionsToRuntime : Pass<"convert-contractions-to-runtime",
                                      "::mlir::ModuleOp"> {
  let summary = "Lower batched contractions in linalg.generic to runtime GEMMs";
  let description = [{
    A `linalg.generic` on buffers that is a contraction (body
    `out + a * b`; one reduction dimension `k`; one dimension `m` of the
    first input and the output, one dimension `n` of the second input and
    the output, any number of batch dimensions of all three), whose buffers
    have static strides that make each batch a row-major GEMM (unit stride
    along `k` or `m` in A, along `n` or `k` in B, along `n` in C), becomes
    one `summaRtMatmulBatched` (`accumulate = 1`) over the innermost batch
    dimension, in a loop nest over the outer batch dimensions (a batch of
    one without batch dimensions): attention's `Q·Kᵀ` and `P·V` per
    (batch, head), written as generics to keep heads a dimension of their
    own. Other generics are left for the generic lowering.

    Part of both targets' lowering: OpenBLAS on the CPU and cuBLAS on the
    GPU instead of a generated loop nest or kernel. The runtime counts these
    GEMMs apart (the profile's `local_matmul`), so that its `matmul`
    counters stay those of the SUMMA GEMMs that summa-plan predicts.

    With `remarks`, every local `linalg` op left at this point gets a
    remark at its location: `library:` (this GEMM) or `generated:` with the
    reason it is not a contraction the runtime takes (the SUMMA steps'
    GEMMs are runtime calls already, from `convert-summa-to-runtime`).
    `summa-compile --remarks` and the pipelines' `remarks` option turn it
    on.
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", "false",
           "report, at each local linalg op, whether it went to the "
           "runtime's GEMM (library) or stays generated code, and why">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def SummaApproximateMath : Pass<"summa-approximate-math"> {
  let summary = "f32 transcendental functions as polynomial approximations";
  let description = [{
    The `math` functions named by `ops` (default `tanh,exp,expm1,erf`: the
    GeLU, softmax and exact-GeLU functions of a transformer) on f32 scalars
    and vectors become upstream MLIR's polynomial approximations
    (`populateMathPolynomialApproximationPatterns`): a few multiplies, adds
    and a division per element, which LLVM's loop vectoriser turns into
    SIMD code, instead of a call into libm per element (`tanhf` and the
    `expm1f` it calls took a quarter of a GPT-2-small layer's non-GEMM time
    on the CPU). Other functions and types are left alone.

    Part of the CPU target's fast path; the `--check` reference is lowered
    without it (libm), so the approximation's error shows in `--check`.
  }];
  let options = [
    Option<"ops", "ops", "std::string", /*default=*/"\"tanh,exp,expm1,erf\"",
           "comma-separated math functions to approximate">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def SummaDeallocAtLastUse : Pass<"summa-dealloc-at-last-use"> {
  let summary = "Free each local buffer right after its last use";
  let description = [{
    Runs right after `ownership-based-buffer-deallocation`. Every entry of a
    `bufferization.dealloc` that frees, unconditionally, a `memref.alloc` of
    the same block that does not escape (no alias is returned, yielded,
    passed into a loop's carried values, freed elsewhere or produced by an
    op that is not a view) becomes a `memref.dealloc` right after the last
    op of the block that uses the buffer or one of its views; entries whose
    condition is the constant `false` are dropped. Entries it cannot prove
    stay for upstream's simplification and lowering.

    Two effects: a buffer's memory is back in the heap as soon as the
    buffer is dead, so a call's peak memory is that of its live buffers, not
    the sum of all of them; and the end-of-function `bufferization.dealloc`,
    which lists every buffer of the function and which
    `buffer-deallocation-simplification` compares pairwise (quadratic in
    the size of the model), is gone.

    ```mlir
    %a = memref.alloc() : memref<8xf32>
    linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
    memref.copy %a, %out : memref<8xf32> to memref<8xf32>
    memref.dealloc %a : memref<8xf32>        // here, not at the end
    ... // the rest of the function
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def SummaPromoteFloats : Pass<"summa-promote-floats", "::mlir::ModuleOp"> {
  let summary = "Compute a module in f64: every f16, bf16 and f32 becomes f64";
  let description = [{
    For `--check`'s reference: every `f16`, `bf16` and `f32` in the module
    (function signatures, tensor, memref and vector element types, block
    arguments, scalar and tensor constants, `dense_resource` data) becomes
    `f64`, and the `arith.extf`/`arith.truncf` that became conversions of
    a type to itself are dropped. The reference then computes in f64 from
    the same (exactly widened) inputs, independent of the rounding of the
    program it checks.

    A module that cannot be promoted (a bitcast of a float to an integer,
    a constant whose data is not available) is left as it was and the pass
    fails with the reason at the op's location.

    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32>  // tensor<4xf64>
      %c = arith.constant 0.5 : f32                    // 0.5 : f64
    ```
  }];
}

def SummaOutlineDispatches : Pass<"summa-outline-dispatches",
                                  "::mlir::ModuleOp"> {
  let summary = "Each local loop nest of a function into its own function";
  let description = [{
    Every op with regions at the top level of a function's body (a `linalg`
    op on buffers, an `scf.for`/`scf.parallel`/`scf.forall`/`scf.while`/
    `scf.if`: the local ops and the SUMMA loops of a partitioned program)
    becomes a call of a private function
    `@<function>_dispatch_<n>(values it uses)` that holds it; the constants
    it uses are copied into that function, other values are arguments and
    its results are the function's. Functions with the same body are one
    function: the layers of a model share their dispatch functions.

    Each dispatch function is small, internal and not inlined back
    (`passthrough = ["noinline"]`), so the conversion to control flow and
    LLVM and LLVM's optimisation work on small functions: compile time
    grows linearly with the number of layers, not quadratically with the
    size of one function, and identical layers are compiled once.

    ```mlir
    linalg.generic {...} ins(%x : memref<8x64xf32>) outs(%y : memref<8x64xf32>) {...}
    // becomes
    call @model_dispatch_3(%x, %y) : (memref<8x64xf32>, memref<8x64xf32>) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def SummaBlockReductions : Pass<"summa-block-reductions", "::mlir::ModuleOp"> {
  let summary = "Row reductions of host code as one GPU block per output element";
  let description = [{
    Part of `--target=cuda`, before `summa-prepare-device-ops`. A structured
    op of host code (memref form) that reduces along one dimension, with one
    output combined by a known associative op (`arith.addf`, `mulf`,
    `maximumf`, `minimumf`, `maxnumf`, `minnumf`, and the integer ones),
    projected-permutation indexing maps, static loop ranges, a reduction at
    least 32 long that is the last index of every input it indexes (rows:
    LayerNorm's mean and variance, softmax's maximum and sum, a loss), is
    replaced by loops in the form that becomes a block reduction:

    ```mlir
    scf.parallel (parallel dims) {            // summa.block_reduction
      %old = memref.load %out[...]
      %all = scf.parallel (%t) = (0) to (T) step (1) init (identity) {
        %part = scf.for %r = %t to L step T iter_args(%acc = identity) {
          ... the op's body at (parallel dims, %r), combined into %acc ...
        }
        scf.reduce(%part) { the combiner }
      }
      memref.store combiner(%old, %all), %out[...]
    }
    ```

    `summa-map-parallel-loops` maps the outer loop to blocks and the inner
    one to the `T` threads of a block (`T` = `block-size`, or the reduction
    length rounded up to a warp where that is shorter);
    `convert-parallel-loops-to-gpu` turns the inner loop's `scf.reduce` into
    a `gpu.all_reduce` and `summa-lower-block-reductions` that into warp
    shuffles. A full reduction (no parallel dimension) of at least 16384
    elements is a two-level tree: a first loop of blocks reduces chunks
    into a buffer of partial results (`memref.alloc`), a second block
    reduces that buffer into the output. Column reductions (the reduction not the contiguous index) and
    short ones keep one loop per thread. On the host (`--gpu-loops-on-host`)
    the same loops run sequentially.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256",
           "threads per block (1 to 1024; a multiple of 32 fills warps)">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "report, at each op made a block reduction, its threads per "
           "block">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def SummaLowerBlockReductions : Pass<"summa-lower-block-reductions", "::mlir::ModuleOp"> {
  let summary = "Block-wide gpu.all_reduce in kernels as warp shuffles";
  let description = [{
    Part of `--target=cuda`, after `gpu-kernel-outlining`. A `gpu.all_reduce`
    at the top level of a kernel's body (reached by every thread of the
    block, as those of `summa-block-reductions` are) is marked `uniform` and
    expanded by upstream's all-reduce rewrite: a shuffle reduction per warp,
    the warps' partial results through workgroup memory, one more warp
    reduction. Any other `gpu.all_reduce` is an error at the op: its
    threads might not all reach it.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def SummaPrepareDeviceOps : Pass<"summa-prepare-device-ops", "::mlir::ModuleOp"> {
  let summary = "Put every local memref op into a form that becomes a GPU kernel";
  let description = [{
    The first step of `--target=cuda` (docs/GPU.md), after
    `convert-summa-to-runtime` and before `convert-linalg-to-parallel-loops`:

    * `memref.copy` becomes `linalg.copy`, so that it is lowered to a
      parallel loop (a kernel) like every other structured op, strided
      subviews included. (A host `memcpy` over device memory would crash.)
    * A structured op without a parallel iterator (a full reduction, such as
      a loss to a 0-d memref) is wrapped in a one-iteration `scf.parallel`,
      so that it becomes a one-thread kernel instead of a host loop.
    * A host global (`memref.get_global`: a constant of the model, a
      causal mask or a rotary table an exporter inlined) is copied, at the
      function's entry, into a device buffer that every use reads instead
      (`gpu.memcpy`, the runtime's `mgpuMemcpy`, on its compute stream),
      freed before each return; one copy per global and function call
      (not with `globals-to-device=false`: `--gpu-loops-on-host`, where
      the loops run on the CPU and read the global where it is).

    Ops inside `gpu.launch` or `gpu.module` are left alone.
  }];
  let options = [
    Option<"globalsToDevice", "globals-to-device", "bool", /*default=*/"true",
           "copy host globals into device buffers">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def SummaMapParallelLoops : Pass<"summa-map-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Map outermost scf.parallel loops to GPU blocks and threads";
  let description = [{
    Each outermost `scf.parallel` of a host function (from
    `convert-linalg-to-parallel-loops`) is collapsed into one dimension,
    tiled by `block-size`, and annotated for `convert-parallel-loops-to-gpu`:
    the tile loop on `block_x`, the loop inside a tile on `thread_x` (with a
    bounds guard), nested `scf.parallel` loops sequential. So a kernel has
    `block-size` threads and one thread per element of the parallel
    iteration space, whatever the rank of the op.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256",
           "threads per block (1 to 1024)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def SummaVerifyHostCode : Pass<"summa-verify-host-code", "::mlir::ModuleOp"> {
  let summary = "Refuse host code that would touch device memory";
  let description = [{
    With `--target=cuda` every buffer is device memory. After kernel
    outlining, a host function may only allocate and free buffers, take
    their metadata, call the runtime and launch kernels. Any other op that
    reads or writes a memref's contents (by its memory effects: a
    `memref.load`, a `memref.copy`, a structured op left on the host, an
    unmapped loop), and any `memref.alloca` or `memref.get_global`, is an
    error at that op, naming it: it would run on the host over device memory.
  }];
}

#endif // SUMMA_CONVERSION_PASSES_TD
