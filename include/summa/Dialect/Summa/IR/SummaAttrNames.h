//===- SummaAttrNames.h - names of the discardable attributes ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The names of the summa dialect's discardable attributes, in a header of
// their own (no generated code) so that passes outside the dialect's
// libraries name them from here too.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMAATTRNAMES_H
#define SUMMA_DIALECT_SUMMA_IR_SUMMAATTRNAMES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::summa {
/// The dialect's discardable attributes; SummaDialect's verifiers check each
/// one's place and type, and refuse other `summa.` names.
/// On function arguments and results: the tensor's layout (written by
/// summa-assign-layouts, or given).
constexpr llvm::StringLiteral kLayoutAttrName = "summa.layout";
/// On a function argument: activation, weight, bias or replicated.
constexpr llvm::StringLiteral kRoleAttrName = "summa.role";
/// On a function argument: how the driver fills it ("nonnegative").
constexpr llvm::StringLiteral kInitAttrName = "summa.init";
/// On arguments, results and ops: a name for files and messages.
constexpr llvm::StringLiteral kNameAttrName = "summa.name";
/// On a function result (an argument once results are out-parameters): the
/// argument it is the updated value of.
constexpr llvm::StringLiteral kUpdatesAttrName = "summa.updates";
/// On a function argument: an embedding table whose row of this index (in
/// its first dimension, 0 <= index < its size) gets no gradient from
/// lookups (PyTorch's nn.Embedding(padding_idx); summa-differentiate).
constexpr llvm::StringLiteral kPaddingIndexAttrName = "summa.padding_idx";
/// On a function (summa-derive-generation's decode step): its products with
/// a weight keep the weight where it is (weight-stationary): the activation
/// is brought to the weight's split of the contracted dimension and the
/// partial products all-reduced, instead of SUMMA's broadcast of weight
/// panels (OpRules/Structured.cpp, visitMatmul).
constexpr llvm::StringLiteral kWeightStationaryAttrName =
    "summa.weight_stationary";
/// On a training step summa-differentiate derived: the loss function, the
/// gradients' function and the parameters --gradcheck compares
/// (GradcheckAttr.h).
constexpr llvm::StringLiteral kGradcheckAttrName = "summa.gradcheck";
/// On an op: the layouts of its operands and results (summa-assign-layouts).
constexpr llvm::StringLiteral kLayoutsAttrName = "summa.layouts";
/// On a structured op that reduces over split dimensions: the axes its
/// partial results are all-reduced over, and the kind per result (an
/// array of ReductionKindAttr).
constexpr llvm::StringLiteral kReduceAxesAttrName = "summa.reduce_axes";
constexpr llvm::StringLiteral kReduceKindsAttrName = "summa.reduce_kinds";
/// On a function: a dispatch function of summa-outline-dispatches.
constexpr llvm::StringLiteral kDispatchAttrName = "summa.dispatch";
/// On an scf.parallel of summa-block-reductions: one block per iteration,
/// its nested reduction loop on the block's threads.
constexpr llvm::StringLiteral kBlockReductionAttrName = "summa.block_reduction";

} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMAATTRNAMES_H
