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

def ConvertScalarLoadsToRuntime : Pass<"convert-scalar-loads-to-runtime",
                                      "::mlir::ModuleOp"> {
  let summary = "Read the integers host code loads from buffers through the "
                "runtime";
  let description = [{
    A `memref.load` of an `i64` or `i32` element in host code (not inside a
    `linalg` op or a loop nest that becomes a kernel) becomes a call of
    `summaRtLoadScalar(base, offset, dtype)`, which returns the element as
    an `int64_t`. With `--target=cuda` every buffer is device memory: the
    GPU runtime copies the element to the host after the work queued before
    it (a derived decode step's position, `pos`, which sets the offsets of
    its cache writes and mask rows). The CPU runtime reads it in place.

    Part of the `--target=cuda` lowering, before its kernel loops, so that
    `summa-verify-host-code` finds no host access to a buffer; with
    `--gpu-loops-on-host` the same calls run on the CPU runtime.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
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
#endif // SUMMA_CONVERSION_PASSES_TD
