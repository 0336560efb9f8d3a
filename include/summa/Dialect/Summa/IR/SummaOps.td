//===- SummaOps.td - summa operations ------------------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The grid symbol, the distributed contraction and the collectives.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMAOPS_TD
#define SUMMA_DIALECT_SUMMA_IR_SUMMAOPS_TD

include "summa/Dialect/Summa/IR/SummaDialect.td"
include "summa/Dialect/Summa/IR/SummaAttrs.td"
include "summa/Dialect/Summa/IR/SummaTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

def Summa_GridOp : Summa_Op<"grid", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "a [q, q, d] grid of ranks";
  let description = [{
    Declares the grid of `q * q * d` ranks that layouts and collectives refer
    to: `d` SUMMA grids of `q x q` side by side. Rank `(i, j, k)` (row,
    column, depth) has world rank `k*q*q + i*q + j`.

    ```mlir
    summa.grid @grid shape = [2, 2, 2]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DenseI64ArrayAttr:$shape);
  let assemblyFormat = "$sym_name `shape` `=` $shape attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getQ() { return getShape()[0]; }
    int64_t getD() { return getShape()[2]; }
    int64_t getNumRanks() { return getShape()[0] * getShape()[1] * getShape()[2]; }
    /// The extent of the grid along `axis`.
    int64_t getAxisSize(GridAxis axis) { return getShape()[static_cast<int>(axis)]; }
    /// The size of the group spanning `axes`.
    int64_t getGroupSize(::llvm::ArrayRef<int32_t> axes);
  }];
}

def Summa_CoordOp : Summa_Op<"coord", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "this rank's coordinate on a grid axis";
  let description = [{
    The coordinate (`i`, `j` or `k`) of the executing rank on `axis`. The
    partitioner uses it to turn local loop indices into global ones.

    ```mlir
    %i = summa.coord @grid axis = row
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid, Summa_GridAxis:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$grid `axis` `=` $axis attr-dict";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Redistribution (between summa-assign-layouts and summa-partition)
//===----------------------------------------------------------------------===//

def Summa_RelayoutOp : Summa_Op<"relayout", [
    Pure, AllTypesMatch<["input", "result"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the same global tensor in another layout";
  let description = [{
    The identity on the global value: its result is `input`, laid out by
    `layout` instead of the layout the input has. `summa-assign-layouts`
    inserts one where two uses of a value want different layouts, or where an
    op cannot keep its operand's split (a slice or concatenation along a
    split dimension, a softmax over one, a reduction that cannot be completed
    by an all-reduce). `summa-partition` turns it into the explicit
    redistribution: a `summa.all_gather` of every dimension whose split
    changes, then a local `tensor.extract_slice` of this rank's block of
    every dimension the target splits (no communication), and reports the
    bytes per rank with `remarks`.

    ```mlir
    %r = summa.relayout %x to #summa.layout<@grid, [[depth, row], []]>
        : tensor<32x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, Summa_LayoutAttr:$layout);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `to` $layout attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Distributed contraction
//===----------------------------------------------------------------------===//

def Summa_MatmulOp : Summa_Op<"matmul", [
    Pure, AllElementTypesMatch<["lhs", "rhs", "acc", "result"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "2.5D SUMMA contraction of local tiles";
  let description = [{
    The distributed product of two matrices laid out on a grid, written on
    the tiles this rank holds; the result is `acc` plus the product, in the
    layout of `acc`. With grid `[q, q, d]`, form `ab` computes
    `C[M, N] += A[M, K] * B[K, N]` where A and C are activations with layout
    `[[depth, row], [col]]` (local tiles `[M/(d*q), K/q]` and
    `[M/(d*q), N/q]`) and B is a weight with layout `[[row], [col]]` (local
    tile `[K/q, N/q]`, replicated over depth). Forms `abt` (`A * B^T`) and
    `atb` (`A^T * B`) are the backward products of a linear layer.

    `summa-expand-matmul` turns form `ab` into its `q` SUMMA steps of
    broadcasts and local `linalg.matmul`.

    Form `atb` sums its product over the depth replicas (each holds the
    product of its own tokens). With `depth_scatter = k` that sum is a
    reduce-scatter over depth along dimension `k` of the result: each depth
    replica keeps only its `1/d` block of it (the gradient of a weight whose
    optimizer state is split over depth), and the result's dimension `k` is
    the accumulator's divided by `d`. Otherwise the result has the
    accumulator's type.

    ```mlir
    %c = summa.matmul %a, %b, %acc on @grid form = ab
        : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       AnyRankedTensor:$acc, FlatSymbolRefAttr:$grid,
                       DefaultValuedAttr<Summa_MatmulForm,
                                         "::mlir::summa::MatmulForm::ab">:$form,
                       OptionalAttr<I64Attr>:$depth_scatter);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc `on` $grid `form` `=` $form attr-dict `:`
    type($lhs) `,` type($rhs) `,` type($acc) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

def Summa_TileType : AnyTypeOf<[AnyRankedTensor, AnyMemRef],
                               "ranked tensor or memref">;

class Summa_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Summa_Op<mnemonic, traits # [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  code commonExtraClassDeclaration = [{
    /// True for the memref (bufferized) form.
    bool hasBufferSemantics() {
      return ::llvm::isa<::mlir::MemRefType>(getInput().getType());
    }
    /// The axes the group spans.
    ::llvm::SmallVector<GridAxis> getGridAxes() {
      ::llvm::SmallVector<GridAxis> axes;
      for (int32_t a : getAxes())
        axes.push_back(static_cast<GridAxis>(a));
      return axes;
    }
  }];
  let extraClassDeclaration = commonExtraClassDeclaration;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

// Collectives that keep the shape: tensor form returns a new value of the
// input type; memref form works in place and returns nothing.
class Summa_InPlaceCollectiveOp<string mnemonic, list<Trait> traits = []>
    : Summa_CollectiveOp<mnemonic, traits> {
  let results = (outs Optional<AnyRankedTensor>:$result);
  let hasFolder = 1;
}

def Summa_BroadcastOp : Summa_InPlaceCollectiveOp<"broadcast"> {
  let summary = "broadcast a tile from one member of a grid group";
  let description = [{
    Every member of the group spanning `axes` receives the tile of the member
    with index `root` (members are ordered by world rank, so along a single
    axis the index is the coordinate on that axis). In a SUMMA step `t`,
    `axes = [col] root = t` sends column `t`'s panel along its row.

    ```mlir
    %p = summa.broadcast %x on @grid axes = [col] root = %t
        : tensor<4x8xf32> -> tensor<4x8xf32>
    summa.broadcast %buf on @grid axes = [col] root = %t : memref<4x8xf32>
    ```
  }];
  let arguments = (ins Summa_TileType:$input, FlatSymbolRefAttr:$grid,
                       DenseI32ArrayAttr:$axes, Index:$root);
  let assemblyFormat = [{
    $input `on` $grid `axes` `=` custom<GridAxes>($axes) `root` `=` $root
    attr-dict `:` type($input) (`->` type($result)^)?
  }];
}

def Summa_ReduceOp : Summa_InPlaceCollectiveOp<"reduce"> {
  let summary = "reduce tiles of a grid group to one member";
  let description = [{
    The member with index `root` of the group spanning `axes` receives the
    elementwise reduction of every member's tile; the other members keep
    their input unchanged.

    ```mlir
    %r = summa.reduce %x on @grid axes = [col] root = %t kind = sum
        : tensor<4x8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Summa_TileType:$input, FlatSymbolRefAttr:$grid,
                       DenseI32ArrayAttr:$axes, Index:$root,
                       Summa_ReductionKind:$kind);
  let assemblyFormat = [{
    $input `on` $grid `axes` `=` custom<GridAxes>($axes) `root` `=` $root
    `kind` `=` $kind attr-dict `:` type($input) (`->` type($result)^)?
  }];
}

def Summa_AllReduceOp : Summa_InPlaceCollectiveOp<"all_reduce"> {
  let summary = "reduce tiles over a grid group, result on every member";
  let description = [{
    ```mlir
    %r = summa.all_reduce %x on @grid axes = [depth] kind = sum
        : tensor<8x8xf32> -> tensor<8x8xf32>
    ```
  }];
  let arguments = (ins Summa_TileType:$input, FlatSymbolRefAttr:$grid,
                       DenseI32ArrayAttr:$axes, Summa_ReductionKind:$kind);
  let assemblyFormat = [{
    $input `on` $grid `axes` `=` custom<GridAxes>($axes) `kind` `=` $kind
    attr-dict `:` type($input) (`->` type($result)^)?
  }];
}

// Collectives that change the size of one dimension: tensor form returns a
// new value; memref form writes into a separate `into` buffer.
class Summa_ReshapingCollectiveOp<string mnemonic, list<Trait> traits = []>
    : Summa_CollectiveOp<mnemonic, traits> {
  let results = (outs Optional<AnyRankedTensor>:$result);
  let hasFolder = 1;
}

def Summa_AllGatherOp : Summa_ReshapingCollectiveOp<"all_gather"> {
  let summary = "concatenate the tiles of a grid group along a dimension";
  let description = [{
    Dimension `dim` of the result is the group size times that of the input;
    member `r`'s tile lands at block `r`.

    ```mlir
    %g = summa.all_gather %x on @grid axes = [col] dim = 1
        : tensor<4x8xf32> -> tensor<4x16xf32>
    summa.all_gather %a into %b on @grid axes = [col] dim = 1
        : memref<4x8xf32> into memref<4x16xf32>
    ```
  }];
  let arguments = (ins Summa_TileType:$input, Optional<AnyMemRef>:$output,
                       FlatSymbolRefAttr:$grid, DenseI32ArrayAttr:$axes,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let assemblyFormat = [{
    $input (`into` $output^)? `on` $grid `axes` `=` custom<GridAxes>($axes)
    `dim` `=` $dim attr-dict `:` type($input) (`into` type($output)^)?
    (`->` type($result)^)?
  }];
}

def Summa_ReduceScatterOp : Summa_ReshapingCollectiveOp<"reduce_scatter"> {
  let summary = "reduce over a grid group and scatter blocks of a dimension";
  let description = [{
    Dimension `dim` of the input is split into as many blocks as the group
    has members; member `r` receives the reduction of every member's block
    `r`.

    ```mlir
    %s = summa.reduce_scatter %x on @grid axes = [col] dim = 1 kind = sum
        : tensor<4x16xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Summa_TileType:$input, Optional<AnyMemRef>:$output,
                       FlatSymbolRefAttr:$grid, DenseI32ArrayAttr:$axes,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
                       Summa_ReductionKind:$kind);
  let assemblyFormat = [{
    $input (`into` $output^)? `on` $grid `axes` `=` custom<GridAxes>($axes)
    `dim` `=` $dim `kind` `=` $kind attr-dict `:` type($input)
    (`into` type($output)^)? (`->` type($result)^)?
  }];
}

//===----------------------------------------------------------------------===//
// Asynchronous collectives (buffers only)
//===----------------------------------------------------------------------===//

class Summa_AsyncCollectiveOp<string mnemonic, list<Trait> traits = []>
    : Summa_Op<mnemonic, traits # [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let results = (outs Summa_TokenType:$token);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The axes the group spans.
    ::llvm::SmallVector<GridAxis> getGridAxes() {
      ::llvm::SmallVector<GridAxis> axes;
      for (int32_t a : getAxes())
        axes.push_back(static_cast<GridAxis>(a));
      return axes;
    }
  }];
}

def Summa_AsyncBroadcastOp : Summa_AsyncCollectiveOp<"async_broadcast"> {
  let summary = "start a broadcast in a grid group";
  let description = [{
    Starts `summa.broadcast` of the buffer (in place) and returns at once.
    The buffer holds the root's tile only after `summa.wait` of the token;
    until then nothing may read or write it. `summa-overlap` starts step
    `t+1`'s panel broadcasts before step `t`'s GEMM.

    ```mlir
    %tok = summa.async_broadcast %buf on @grid axes = [col] root = %t
        : memref<4x8xf32>
    ...
    summa.wait %tok
    ```
  }];
  let arguments = (ins AnyMemRef:$input, FlatSymbolRefAttr:$grid,
                       DenseI32ArrayAttr:$axes, Index:$root);
  let assemblyFormat = [{
    $input `on` $grid `axes` `=` custom<GridAxes>($axes) `root` `=` $root
    attr-dict `:` type($input)
  }];
}

def Summa_AsyncReduceOp : Summa_AsyncCollectiveOp<"async_reduce"> {
  let summary = "start a reduction to one member of a grid group";
  let description = [{
    Starts `summa.reduce` of the buffer (in place) and returns at once; the
    root's buffer holds the reduction only after `summa.wait` of the token,
    and no member may touch its buffer before then.

    ```mlir
    %tok = summa.async_reduce %buf on @grid axes = [row] root = %t kind = sum
        : memref<8x6xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$input, FlatSymbolRefAttr:$grid,
                       DenseI32ArrayAttr:$axes, Index:$root,
                       Summa_ReductionKind:$kind);
  let assemblyFormat = [{
    $input `on` $grid `axes` `=` custom<GridAxes>($axes) `root` `=` $root
    `kind` `=` $kind attr-dict `:` type($input)
  }];
}

def Summa_WaitOp : Summa_Op<"wait", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "complete an asynchronous collective";
  let description = [{
    Returns when the collective that produced `token` is complete on this
    rank: its buffer may then be read and written.

    ```mlir
    summa.wait %tok
    ```
  }];
  let arguments = (ins Summa_TokenType:$token);
  let assemblyFormat = "$token attr-dict";
}

//===----------------------------------------------------------------------===//
// Local data movement at computed indices
//===----------------------------------------------------------------------===//

def Summa_ScatterOp : Summa_Op<"scatter", [
    DestinationStyleOpInterface, SingleBlock,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "combine slices into a tensor at computed indices";
  let description = [{
    Writes `updates` into `original` at the positions `indices` names,
    combining each update with the element it lands on by the region
    (whose arguments are the update and the current element). It is the
    adjoint of a gather (an embedding's gradient is the scatter-add of the
    output gradient into the table's rows) and the form of torch-mlir's
    `tm_tensor.scatter`.

    `indices` is `[N..., K]`: batch dimensions, then one column per entry
    of `dimension_map`, which names the dimension of `original` each column
    indexes. `updates` is `[N..., S...]`: the same batch dimensions, then
    one slice dimension for each dimension of `original` that
    `dimension_map` does not name, in order (a slice dimension may be
    shorter than the one it covers: it covers its leading part). For every
    batch index `n` and slice position `s`, the element of `original` at
    the position whose named dimensions are `indices[n, :]` and whose other
    dimensions are `s` becomes `region(updates[n, s], original[p])`.
    Updates are applied in batch order, so the result is deterministic
    whatever the combiner; a position with an index outside its dimension
    is skipped (a masked update, and how a rank skips the rows it does not
    own).

    On tensors the op returns the new tensor; on buffers it updates
    `original` in place. `summa-lower-scatter` turns the buffer form into
    loops.

    ```mlir
    %g = summa.scatter dimension_map = [0]
        ins(%dy, %ids : tensor<256x768xf32>, tensor<256x1xi64>)
        outs(%zero : tensor<50257x768xf32>) {
    ^bb0(%update: f32, %current: f32):
      %s = arith.addf %current, %update : f32
      summa.yield %s : f32
    } -> tensor<50257x768xf32>
    ```
  }];
  let arguments = (ins Summa_TileType:$updates, Summa_TileType:$indices,
                       Summa_TileType:$original,
                       DenseI64ArrayAttr:$dimension_map);
  let results = (outs Optional<AnyRankedTensor>:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    `dimension_map` `=` $dimension_map
    `ins` `(` $updates `,` $indices `:` type($updates) `,` type($indices) `)`
    `outs` `(` $original `:` type($original) `)`
    $combiner attr-dict (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOriginalMutable();
    }
    /// The rank of the batch dimensions (indices' rank - 1).
    int64_t getBatchRank() {
      return ::llvm::cast<::mlir::ShapedType>(getIndices().getType())
                 .getRank() - 1;
    }
    /// The dimensions of `original` that the slice dimensions of `updates`
    /// cover, in order (those dimension_map does not name).
    ::llvm::SmallVector<int64_t> getSliceDims();
    /// The combiner's terminator value, for a combiner known by its kind.
    ::mlir::Operation *getCombinerOp();
    /// True if the combiner is `current + update` (a scatter-add).
    bool isAdd();
  }];
}

def Summa_YieldOp : Summa_Op<"yield",
    [Pure, ReturnLike, Terminator, HasParent<"ScatterOp">]> {
  let summary = "the value a summa.scatter's combiner computes";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMAOPS_TD
