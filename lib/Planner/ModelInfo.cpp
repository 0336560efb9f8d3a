//===- ModelInfo.cpp - the model read from the IR ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// describeModel: what the planner says about the model it plans (tokens,
// hidden size, element type, weight matrices, layers, parameters, flops),
// read from the unpartitioned entry function; argumentRole: which
// arguments carry tokens.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

ArgRole mlir::summa::plan::detail::argumentRole(func::FuncOp func,
                                                unsigned index) {
  // The layout summa-assign-layouts gives the argument, where known: the
  // batch is split over depth, parameters are replicated over it.
  if (auto layout = func.getArgAttrOfType<LayoutAttr>(index, kLayoutAttrName))
    return llvm::is_contained(layout.getSplitAxes(), GridAxis::depth)
               ? ArgRole::Activation
               : ArgRole::Parameter;
  if (auto role = func.getArgAttrOfType<StringAttr>(index, kRoleAttrName))
    return role.getValue() == "activation" ? ArgRole::Activation
                                           : ArgRole::Parameter;
  auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[index]);
  if (!type || type.getRank() != 2)
    return ArgRole::Parameter;
  BlockArgument arg = func.getArgument(index);
  bool rhs = llvm::any_of(arg.getUsers(), [&](Operation *user) {
    auto mm = dyn_cast<linalg::MatmulOp>(user);
    return mm && mm.getDpsInputOperand(1)->get() == arg;
  });
  return rhs ? ArgRole::Parameter : ArgRole::Activation;
}

int64_t mlir::summa::plan::detail::matmulFlops(linalg::MatmulOp mm) {
  int64_t flops = 2;
  for (int64_t range : mm.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    flops *= range;
  }
  return flops;
}

ModelInfo mlir::summa::plan::detail::describeModel(func::FuncOp func) {
  ModelInfo info;
  info.source = "ir";
  info.entry = func.getSymName().str();
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (!type)
      continue;
    if (info.elementType.empty() &&
        argumentRole(func, i) == ArgRole::Activation) {
      std::string name;
      llvm::raw_string_ostream os(name);
      os << type.getElementType();
      info.elementType = name;
      info.elementBytes = elementBytes(type.getElementType());
    }
    if (!type.hasStaticShape())
      continue;
    if (argumentRole(func, i) == ArgRole::Activation) {
      if (info.tokens == 0 && type.getRank() >= 2) {
        // The hidden dimension is the one split over col; the others hold
        // tokens ([batch, seq, hidden] as well as [tokens, hidden]).
        int64_t hiddenDim = type.getRank() - 1;
        if (auto layout = func.getArgAttrOfType<LayoutAttr>(i, kLayoutAttrName))
          for (unsigned d = 0; d < layout.getRank(); ++d)
            if (llvm::is_contained(layout.getDimSplit(d), GridAxis::col))
              hiddenDim = d;
        info.hidden = type.getDimSize(hiddenDim);
        info.tokens = type.getNumElements() / info.hidden;
        std::string name;
        llvm::raw_string_ostream os(name);
        os << type.getElementType();
        info.elementType = name;
        info.elementBytes = elementBytes(type.getElementType());
      }
      continue;
    }
    info.parameters += type.getNumElements();
  }
  // Weight matrices: arguments laid out over row and col, or else the rhs
  // of a forward A*W.
  llvm::SmallPtrSet<Value, 16> weights;
  for (BlockArgument arg : func.getArguments())
    if (auto layout = func.getArgAttrOfType<LayoutAttr>(arg.getArgNumber(),
                                                        kLayoutAttrName)) {
      SmallVector<GridAxis> axes = layout.getSplitAxes();
      if (layout.getRank() == 2 && llvm::is_contained(axes, GridAxis::row) &&
          llvm::is_contained(axes, GridAxis::col) &&
          !llvm::is_contained(axes, GridAxis::depth))
        weights.insert(arg);
    }
  if (weights.empty())
    func.walk([&](linalg::MatmulOp mm) {
      Value w = mm.getDpsInputOperand(1)->get();
      if (!mm.hasUserDefinedMaps() && isa<BlockArgument>(w) &&
          cast<BlockArgument>(w).getOwner() == &func.getBody().front())
        weights.insert(w);
    });
  info.weightMatrices = weights.size();
  func.walk([&](Operation *op) {
    if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
      ++info.matmuls;
      info.flops += static_cast<double>(matmulFlops(mm));
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      auto groups = expand.getReassociationIndices();
      // [tokens, ...] -> [batch, seq, ...] with seq > 1.
      if (info.batch == 0 && !groups.empty() && groups[0].size() > 1 &&
          expand.getSrcType().getRank() >= 2 &&
          expand.getSrcType().getDimSize(0) == info.tokens &&
          expand.getResultType().getDimSize(groups[0][0]) < info.tokens)
        info.batch = expand.getResultType().getDimSize(groups[0][0]);
    }
  });
  if (info.weightMatrices > 0 && info.weightMatrices % 6 == 0)
    info.layers = info.weightMatrices / 6;
  return info;
}
