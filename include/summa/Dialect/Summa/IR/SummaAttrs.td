//===- SummaAttrs.td - summa attributes and enums ------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Grid axes, reduction kinds, matmul forms and the layout attribute.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMAATTRS_TD
#define SUMMA_DIALECT_SUMMA_IR_SUMMAATTRS_TD

include "summa/Dialect/Summa/IR/SummaDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// The integer values are the runtime ABI's (SummaAxis, SummaReduction).
def Summa_GridAxis : I32EnumAttr<"GridAxis", "a grid axis", [
    I32EnumAttrCase<"row", 0>,
    I32EnumAttrCase<"col", 1>,
    I32EnumAttrCase<"depth", 2>
  ]> {
  let cppNamespace = "::mlir::summa";
}

def Summa_ReductionKind : I32EnumAttr<"ReductionKind", "a reduction kind", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>,
    I32EnumAttrCase<"prod", 3>
  ]> {
  let cppNamespace = "::mlir::summa";
}

// The values of the string attributes summa.role and summa.init on function
// arguments (exporters write them as strings): the dialect's verifier
// accepts only these spellings, and passes read them as these enums
// (ArgumentRole.h).
def Summa_ArgumentRole : I32EnumAttr<"ArgumentRole",
    "what a function argument is to the model (summa.role)", [
    I32EnumAttrCase<"Activation", 1, "activation">,
    I32EnumAttrCase<"Weight", 2, "weight">,
    I32EnumAttrCase<"Bias", 3, "bias">,
    I32EnumAttrCase<"Replicated", 4, "replicated">,
    I32EnumAttrCase<"State", 5, "state">
  ]> {
  let cppNamespace = "::mlir::summa";
  let genSpecializedAttr = 0;
}

def Summa_InitKind : I32EnumAttr<"InitKind",
    "how the driver fills an input it is not given (summa.init)", [
    I32EnumAttrCase<"Nonnegative", 0, "nonnegative">,
    I32EnumAttrCase<"Zeros", 1, "zeros">
  ]> {
  let cppNamespace = "::mlir::summa";
  let genSpecializedAttr = 0;
}

def Summa_MatmulForm : I32EnumAttr<"MatmulForm",
    "the operand form of a distributed contraction", [
    I32EnumAttrCase<"ab", 0>,
    I32EnumAttrCase<"abt", 1>,
    I32EnumAttrCase<"atb", 2>
  ]> {
  let cppNamespace = "::mlir::summa";
}

def Summa_LayoutAttr : AttrDef<Summa_Dialect, "Layout"> {
  let mnemonic = "layout";
  let summary = "which grid axes split each dimension of a tensor";
  let description = [{
    For each dimension of a tensor, the list of grid axes that split it,
    outer to inner; axes that split no dimension replicate the tensor. The
    block a rank holds along a dimension is the mixed-radix number of its
    coordinates on those axes.

    ```mlir
    // An activation X[M, K]: tokens split over depth then row, hidden over col.
    #summa.layout<@grid, [[depth, row], [col]]>
    // A bias [N]: split over col, replicated over row and depth.
    #summa.layout<@grid, [[col]]>
    // Replicated scalar-like tensor of rank 2.
    #summa.layout<@grid, [[], []]>
    // A fused Q/K/V projection [tokens, 3h]: the 3h dimension is 3 groups
    // of h, each split over col; a rank holds its block of every group.
    #summa.layout<@grid, [[depth, row], 3x[col]]>
    ```

    A dimension written `gx[axes]` is a factored layout: its n elements are
    g groups of n/g, each group split into blocks over the axes, and the
    local tile holds this rank's block of every group, group by group.
    Slices and concatenations of whole groups then stay inside every tile.
    `1x[axes]` is `[axes]`; groups need a split.
  }];
  let parameters = (ins "::mlir::FlatSymbolRefAttr":$grid,
                        "::mlir::ArrayAttr":$splits,
                        "::mlir::DenseI64ArrayAttr":$groups);
  let builders = [
    AttrBuilder<(ins "::mlir::FlatSymbolRefAttr":$grid,
                     "::mlir::ArrayAttr":$splits), [{
      return $_get($_ctxt, grid, splits,
                   ::mlir::DenseI64ArrayAttr::get($_ctxt, {}));
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Builds a layout from per-dimension axis lists.
    static LayoutAttr get(::mlir::MLIRContext *context,
                          ::mlir::FlatSymbolRefAttr grid,
                          ::llvm::ArrayRef<::llvm::SmallVector<GridAxis>> splits);
    /// Builds a layout from per-dimension axes and groups.
    static LayoutAttr get(::mlir::MLIRContext *context,
                          ::mlir::FlatSymbolRefAttr grid,
                          ::llvm::ArrayRef<DimLayout> dims);
    /// The same, or a null attribute after a diagnostic from `emitError`.
    static LayoutAttr getChecked(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::MLIRContext *context, ::mlir::FlatSymbolRefAttr grid,
        ::llvm::ArrayRef<DimLayout> dims);
    /// The axes and groups of dimension `dim`.
    DimLayout getDim(unsigned dim) const;
    /// Every dimension's axes and groups.
    ::llvm::SmallVector<DimLayout> getDims() const;
    /// The number of groups of dimension `dim` (1 unless factored).
    int64_t getDimGroups(unsigned dim) const;
    /// Whether some dimension is factored into groups.
    bool hasGroups() const { return !getGroups().empty(); }
    /// The tensor rank this layout describes.
    unsigned getRank() const { return getSplits().size(); }
    /// The axes that split dimension `dim`, outer to inner.
    ::llvm::SmallVector<GridAxis> getDimSplit(unsigned dim) const;
    /// All axes that split some dimension.
    ::llvm::SmallVector<GridAxis> getSplitAxes() const;
  }];
}

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMAATTRS_TD
