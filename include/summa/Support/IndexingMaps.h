//===- IndexingMaps.h - the loops an op's indexing maps window --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Facts about the loops of a linalg structured op that every rule reading
// its indexing maps shares: which loops reach an operand only through an
// expression that is not a plain dimension (a window `oh * stride + kh`, a
// flip `K - 1 - kh`). Such a loop cannot be split as if it indexed a
// dimension of its own: the rank holding output rows [a, b) needs input
// rows [a * stride, (b - 1) * stride + K), which are not the block the
// same split of the input holds (docs/Layouts.md, "Windowed dimensions").
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_SUPPORT_INDEXINGMAPS_H
#define SUMMA_SUPPORT_INDEXINGMAPS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::summa {

/// True if `expr` is a dimension or a constant: an operand dimension it
/// indexes is a projection of the loops.
inline bool isProjectedExpr(AffineExpr expr) {
  return isa<AffineDimExpr, AffineConstantExpr>(expr);
}

/// The loops of `maps` (each over `numLoops` dimensions) that appear in a
/// result expression that is not a plain dimension or a constant: the
/// windowed (or strided, or flipped) loops of a convolution, a pooling or
/// a windowed generic.
inline llvm::SmallBitVector getWindowedLoops(ArrayRef<AffineMap> maps,
                                             unsigned numLoops) {
  llvm::SmallBitVector windowed(numLoops);
  for (AffineMap map : maps)
    for (AffineExpr expr : map.getResults()) {
      if (isProjectedExpr(expr))
        continue;
      expr.walk([&](AffineExpr sub) {
        if (auto dim = dyn_cast<AffineDimExpr>(sub))
          windowed.set(dim.getPosition());
      });
    }
  return windowed;
}

inline llvm::SmallBitVector getWindowedLoops(linalg::LinalgOp op) {
  return getWindowedLoops(op.getIndexingMapsArray(), op.getNumLoops());
}

} // namespace mlir::summa

#endif // SUMMA_SUPPORT_INDEXINGMAPS_H
