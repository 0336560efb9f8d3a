//===- DimClasses.h - dimensions that index the same space ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The dimensions of a function's values grouped into classes that index the
// same space: an op's operand and result dimensions that one of its loops
// indexes, a reshape's dimension and the one it merges into, a product's
// rows, columns and contracted dimension, a weight and the result that
// updates it. Slices, insertions and concatenations cut a class into chunks
// (GPT-2's fused Q/K/V: the 3h columns of the product, the weight, the bias,
// the adjoint that the backward assembles from three insertions and the
// gradient products that read it); summa-assign-layouts factors every
// dimension of such a class into groups of the chunk, so that each chunk
// stays inside every tile, forward and backward alike.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_DIMCLASSES_H
#define SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_DIMCLASSES_H

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::summa {

/// The classes, from the rule of each op (DimClassOpInterface, attached by
/// the op families of lib/Dialect/Summa/OpRules).
class DimClasses : public DimClassState {
public:
  /// The classes of `func`'s tensor values.
  explicit DimClasses(func::FuncOp func);

  /// The chunk the slices of its class cut dimension `dim` of `v` into: the
  /// gcd of their offsets and sizes, or 0 when nothing slices it.
  int64_t getChunk(Value v, int64_t dim);

  void unite(Value a, int64_t da, Value b, int64_t db) override {
    unite({a, da}, {b, db});
  }
  void addChunk(Value v, int64_t d, int64_t chunk) override {
    addChunk({v, d}, chunk);
  }

private:
  using Key = std::pair<Value, int64_t>;
  Key find(Key k);
  void unite(Key a, Key b);
  /// Records that a slice of class `k` takes chunks of `chunk` elements.
  void addChunk(Key k, int64_t chunk);

  DenseMap<Key, Key> parent;
  /// Per class representative, the gcd of the chunks (0: none).
  DenseMap<Key, int64_t> chunks;
};

} // namespace mlir::summa

#endif // SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_DIMCLASSES_H
