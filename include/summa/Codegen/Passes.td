//===- Passes.td - summa code generation passes --------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The passes that generate each target's code for the local ops, once the
// program is on buffers with its collectives and GEMMs as runtime calls:
// on the CPU, dispatch functions, fast math, early deallocation and the
// f64 reference (lib/Codegen/CPU); on the GPU, the kernel forms of local
// ops and the checks of host code (lib/Codegen/GPU).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_CODEGEN_PASSES_TD
#define SUMMA_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// The CPU: dispatch functions, fast math, early deallocation, the reference
//===----------------------------------------------------------------------===//

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

def SummaMergeKernelModules : Pass<"summa-merge-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Every outlined kernel in one gpu.module";
  let description = [{
    Part of `--target=cuda`, after `gpu-kernel-outlining`, which puts each
    kernel in a `gpu.module` of its own (and gives every kernel of a
    function the same name). This pass moves the symbols of all top-level
    `gpu.module`s into one, `@summa_kernels` (uniqued), each renamed
    to its module's name (`<module>_<symbol>` where a module holds several),
    and rewrites every reference `@module::@symbol` outside the modules
    (`gpu.launch_func`'s kernel) to its new name. The kernels are then
    compiled to device code by one LLVM NVPTX run and one `ptxas` call,
    not one per kernel, and the program loads one binary.

    Modules with different `targets` or offloading handlers, or different
    discardable attributes, are left as they are with an error at the one
    that differs from the first.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // SUMMA_CODEGEN_PASSES_TD
