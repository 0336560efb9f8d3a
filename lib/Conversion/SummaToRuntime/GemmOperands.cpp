//===- GemmOperands.cpp - a linalg.matmul as runtime arguments --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "GemmOperands.h"

#include "RuntimeABI.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

using namespace mlir;
using namespace mlir::summa;

BufferArgs mlir::summa::decompose(OpBuilder &b, Location loc, Value memref) {
  BufferArgs args;
  args.base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  args.offset = meta.getOffset();
  llvm::append_range(args.sizes, meta.getSizes());
  llvm::append_range(args.strides, meta.getStrides());
  return args;
}

Value mlir::summa::leadingDimension(OpBuilder &b, Location loc,
                                    const BufferArgs &matrix) {
  Value stride = matrix.strides[0];
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value oneRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       matrix.sizes[0], one);
  Value wide = arith::MaxSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, stride, matrix.sizes[1]), one);
  return arith::SelectOp::create(b, loc, oneRow, wide, stride);
}

GemmArgs mlir::summa::getGemmArgs(OpBuilder &b, Location loc,
                                  linalg::MatmulOp matmul) {
  MatmulForm form = *getMatmulForm(matmul.getIndexingMapsArray());
  GemmArgs g;
  g.dtype = getFloatDTypeCode(
      cast<MemRefType>(matmul.getDpsInitOperand(0)->get().getType())
          .getElementType());
  g.a = decompose(b, loc, matmul.getDpsInputOperand(0)->get());
  g.b = decompose(b, loc, matmul.getDpsInputOperand(1)->get());
  // C[m,n] += op(A)·op(B) with op(A) = Aᵀ for atb and op(B) = Bᵀ for abt.
  g.transA = form == MatmulForm::atb;
  g.transB = form == MatmulForm::abt;
  g.m = g.transA ? g.a.sizes[1] : g.a.sizes[0];
  g.k = g.transA ? g.a.sizes[0] : g.a.sizes[1];
  g.n = g.transB ? g.b.sizes[0] : g.b.sizes[1];
  return g;
}

Value mlir::summa::rootBuffer(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

linalg::FillOp mlir::summa::zeroFillBefore(linalg::MatmulOp matmul) {
  Value c = matmul.getDpsInitOperand(0)->get();
  Value root = rootBuffer(c);
  // Calls count as touching C: a callee may reach it through a pointer.
  auto touchesC = [&](Operation *op) {
    WalkResult found = op->walk([&](Operation *nested) {
      if (isa<CallOpInterface>(nested))
        return WalkResult::interrupt();
      for (Value operand : nested->getOperands())
        if (isa<BaseMemRefType>(operand.getType()) &&
            rootBuffer(operand) == root)
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return found.wasInterrupted();
  };
  // The latest fill of C before the matmul in its block (found through C's
  // uses, so that the scan below covers only the ops between the two).
  linalg::FillOp fill;
  for (Operation *user : c.getUsers()) {
    auto candidate = dyn_cast<linalg::FillOp>(user);
    if (!candidate || candidate->getBlock() != matmul->getBlock() ||
        candidate.getDpsInitOperand(0)->get() != c ||
        !candidate->isBeforeInBlock(matmul))
      continue;
    if (!fill || fill->isBeforeInBlock(candidate))
      fill = candidate;
  }
  if (!fill)
    return {};
  for (Operation *op = fill->getNextNode(); op != matmul;
       op = op->getNextNode())
    if (touchesC(op))
      return {};
  return isZeroFill(fill) ? fill : linalg::FillOp();
}

bool mlir::summa::isZeroFill(linalg::FillOp fill) {
  FloatAttr value;
  return matchPattern(fill.getDpsInputOperand(0)->get(), m_Constant(&value)) &&
         value.getValue().isPosZero();
}

LogicalResult
mlir::summa::checkRuntimeGemm(linalg::MatmulOp matmul,
                              function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&]() -> InFlightDiagnostic {
    return emitError ? emitError() : InFlightDiagnostic();
  };
  if (!getMatmulForm(matmul.getIndexingMapsArray())) {
    fail() << "with these indexing maps is not A·B, A·Bᵀ or Aᵀ·B; it has no "
              "runtime GEMM";
    return failure();
  }
  int32_t dtype = -1;
  for (Value v : matmul->getOperands()) {
    auto type = cast<MemRefType>(v.getType());
    int32_t code = getFloatDTypeCode(type.getElementType());
    if (code < 0 || (dtype >= 0 && code != dtype)) {
      fail() << "operand element types must be one runtime type (f32, f64, "
                "f16, bf16), got "
             << type.getElementType();
      return failure();
    }
    dtype = code;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1) {
      fail() << "needs unit stride in the last dimension, got " << type;
      return failure();
    }
  }
  return success();
}
