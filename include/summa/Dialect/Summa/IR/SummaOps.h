//===- SummaOps.h - summa operations and attributes -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMAOPS_H
#define SUMMA_DIALECT_SUMMA_IR_SUMMAOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "summa/Dialect/Summa/IR/SummaDialect.h"

#define GET_ATTRDEF_CLASSES
#include "summa/Dialect/Summa/IR/SummaAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "summa/Dialect/Summa/IR/SummaTypes.h.inc"

#define GET_OP_CLASSES
#include "summa/Dialect/Summa/IR/SummaOps.h.inc"

namespace mlir::summa {

/// The name of a grid axis as it appears in the IR ("row", "col", "depth").
llvm::StringRef getAxisName(GridAxis axis);

/// Looks up the summa.grid that `symbol` names, from `from`'s scope.
GridOp lookupGrid(Operation *from, FlatSymbolRefAttr symbol);

/// The local tile shape of a tensor of `globalShape` under `layout` on
/// `grid`. A dimension of size n split into p blocks has ceil(n / p)
/// elements per rank; where p does not divide n the blocks are uneven:
/// block r holds the global indices [r * ceil(n/p), (r + 1) * ceil(n/p))
/// that are below n and padding after them (docs/Layouts.md). Fails (no
/// diagnostic) for a dynamic size, and for a dimension factored into groups
/// that do not divide evenly.
FailureOr<SmallVector<int64_t>> getLocalShape(ArrayRef<int64_t> globalShape,
                                              LayoutAttr layout, GridOp grid);

/// Whether dimension `dim` of a tensor of `globalShape` is split unevenly
/// under `layout` on `grid` (its last blocks hold padding).
bool isUnevenSplit(ArrayRef<int64_t> globalShape, LayoutAttr layout,
                   GridOp grid, unsigned dim);

/// The number of blocks `axes` split a dimension into on `grid`.
int64_t getSplitFactor(GridOp grid, ArrayRef<GridAxis> axes);

/// The split `split` of one dimension, spread over the dimensions of
/// `sizes` (outer to inner) that it is the row-major merge of, so that every
/// rank holds the same block of the merged dimension: each dimension takes
/// the next axes while they divide it, and the axes go on to the next
/// dimension only once this one is down to one element per rank (tokens
/// [batch, seq] of a batch of 2 on [depth, row] of a [2, 2, d] grid: the
/// batch over depth, the sequence over row). None where the axes do not all
/// find a place, or `split` is factored into groups.
std::optional<SmallVector<DimLayout>>
spreadSplit(GridOp grid, ArrayRef<int64_t> sizes, const DimLayout &split);

/// The form of a matrix product given its indexing maps (lhs, rhs, result)
/// over loops (d0, d1, d2): ab = (d0,d2),(d2,d1); abt = (d0,d2),(d1,d2);
/// atb = (d2,d0),(d2,d1); the result is (d0,d1). std::nullopt otherwise.
std::optional<MatmulForm> getMatmulForm(ArrayRef<AffineMap> maps);

/// The dimension of a product's lhs and of its rhs that `form` contracts
/// (ab: 1 and 0, abt: 1 and 1, atb: 0 and 0); the other dimension of the
/// lhs is the result's rows, of the rhs its columns.
inline unsigned getLhsContractedDim(MatmulForm form) {
  return form == MatmulForm::atb ? 0 : 1;
}
inline unsigned getRhsContractedDim(MatmulForm form) {
  return form == MatmulForm::abt ? 1 : 0;
}

/// The layouts a 2.5D SUMMA product of `form` takes on `grid`: activations
/// `[[depth, row], [col]]`, weights `[[row], [col]]`. ab: activation ·
/// weight -> activation (forward); abt: activation · weightᵀ -> activation
/// (gradient of the input); atb: activationᵀ · activation -> weight
/// (gradient of the weight). `groupsM` and `groupsN` factor the result's
/// rows and columns, and the operand dimensions they come from, into groups
/// (LayoutAttr); `groupsK` factors the contracted dimension of both
/// operands alike (the sum runs over the same indices on every rank, in
/// another order: the input gradient of a fused Q/K/V projection contracts
/// its factored 3h dimension).
struct MatmulLayouts {
  LayoutAttr lhs, rhs, result;
};
MatmulLayouts getMatmulLayouts(MLIRContext *context, FlatSymbolRefAttr grid,
                               MatmulForm form, int64_t groupsM = 1,
                               int64_t groupsN = 1, int64_t groupsK = 1);

/// Prints a list of axes as "[depth, row]".
std::string formatAxes(ArrayRef<GridAxis> axes);

/// The `axes` attribute of a collective (or summa.reduce_axes) naming
/// `axes`: their enum values, in order.
DenseI32ArrayAttr getAxesAttr(MLIRContext *ctx, ArrayRef<GridAxis> axes);

/// Registers the external models (bufferization) of the summa ops.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMAOPS_H
