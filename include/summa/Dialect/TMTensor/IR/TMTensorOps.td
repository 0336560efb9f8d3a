//===- TMTensorOps.td - torch-mlir's tm_tensor ops ------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The ops of torch-mlir's `tm_tensor` dialect that its linalg-on-tensors
// output carries into models summa compiles, in the syntax torch-mlir
// prints, so that an export is read as it is written.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_TMTENSOR_IR_TMTENSOROPS_TD
#define SUMMA_DIALECT_TMTENSOR_IR_TMTENSOROPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TMTensor_Dialect : Dialect {
  let name = "tm_tensor";
  let cppNamespace = "::mlir::summa::tm_tensor";
  let summary = "torch-mlir's tm_tensor ops that exporters write";
  let description = [{
    torch-mlir's linalg-on-tensors output is upstream `linalg`, `tensor`,
    `arith` and `math`, except for what linalg cannot express, which it
    writes with its own `tm_tensor` dialect. Every Hugging Face decoder
    model's causal mask goes through `torch.cumsum` (the packed-sequence
    check of `create_causal_mask`), which becomes `tm_tensor.scan`. summa
    reads these ops in torch-mlir's syntax, on tensors, and
    `convert-tm-tensor-to-linalg` (part of the import every tool runs)
    rewrites them into `linalg` before anything else sees the program.
    An op of the dialect that summa does not read is an error at its
    location that names it (the parser hook below), not a parse failure.
  }];
  let extraClassDeclaration = [{
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
  }];
}

class TMTensor_Op<string mnemonic, list<Trait> traits = []>
    : Op<TMTensor_Dialect, mnemonic, traits>;

def TMTensor_ScanOp : TMTensor_Op<"scan",
    [AttrSizedOperandSegments, Pure, SingleBlock]> {
  let summary = "an inclusive or exclusive scan along one dimension";
  let description = [{
    Scans `input` along `dimension` with the binary operation of the
    region, whose first argument is the value so far and whose second is
    the next input element:

    - inclusive: `out[0] = in[0]`, `out[i] = f(out[i - 1], in[i])`;
    - exclusive: `out[0] = acc`, `out[i] = f(out[i - 1], in[i - 1])`,
      where `acc` is the accumulator operand's value.

    The second result, the accumulator, holds the last element of the
    output along `dimension` (the accumulator operand when the dimension is
    empty). Its shape is the input's without `dimension`.

    ```mlir
    %r:2 = tm_tensor.scan dimension(1) inclusive(true)
        ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi64>, tensor<2xi64>) {
    ^bb0(%prev: i64, %next: i64):
      %s = arith.addi %prev, %next : i64
      tm_tensor.yield %s : i64
    } -> tensor<2x8xi64>, tensor<2xi64>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       Variadic<AnyRankedTensor>:$outputs,
                       I64Attr:$dimension,
                       BoolAttr:$inclusive);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    `dimension` `(` $dimension `)`
    `inclusive` `(` $inclusive `)`
    attr-dict
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInput() { return getInputs()[0]; }
    ::mlir::Value getOutput() { return getOutputs()[0]; }
    ::mlir::Value getAccumulator() { return getOutputs()[1]; }
  }];
}

def TMTensor_SortOp : TMTensor_Op<"sort",
    [AttrSizedOperandSegments, Pure, SingleBlock]> {
  let summary = "sorts tensors together along one dimension";
  let description = [{
    torch-mlir's spelling of `torch.sort` and `torch.topk` (a
    mixture-of-experts router picks its experts with `topk`): every tensor
    of `outs` (of one shape) is permuted along `dimension` by the order of
    the region, a comparator whose arguments are, for each output in turn,
    the element that would come first and the one that would come second;
    it yields whether they are in order. Elements the comparator orders
    neither way keep their relative order (a stable sort). `ins` is empty
    in what torch-mlir writes.

    ```mlir
    %r:2 = tm_tensor.sort dimension(1) outs(%v, %i : tensor<16x4xf32>, tensor<16x4xi64>) {
    ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
      %ge = arith.cmpf oge, %a, %b : f32
      tm_tensor.yield %ge : i1
    } -> tensor<16x4xf32>, tensor<16x4xi64>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       Variadic<AnyRankedTensor>:$outputs,
                       I64Attr:$dimension);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    `dimension` `(` $dimension `)`
    attr-dict
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

def TMTensor_YieldOp : TMTensor_Op<"yield",
    [Pure, ReturnLike, Terminator, ParentOneOf<["ScanOp", "SortOp"]>]> {
  let summary = "the value a tm_tensor op's region computes";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif // SUMMA_DIALECT_TMTENSOR_IR_TMTENSOROPS_TD
