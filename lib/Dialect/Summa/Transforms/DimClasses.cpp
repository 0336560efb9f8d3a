//===- DimClasses.cpp - dimensions that index the same space ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A union-find over (value, dimension) built from every op of a function
// (DimClasses.h), each op relating its own dimensions (DimClassOpInterface,
// in its family's file under lib/Dialect/Summa/OpRules); each class keeps
// the gcd of the chunks its slices cut.
//
//===----------------------------------------------------------------------===//

#include "DimClasses.h"

#include <numeric>

using namespace mlir;
using namespace mlir::summa;

DimClasses::Key DimClasses::find(Key k) {
  auto it = parent.find(k);
  if (it == parent.end() || it->second == k)
    return k;
  Key root = find(it->second);
  parent[k] = root;
  return root;
}

void DimClasses::unite(Key a, Key b) {
  Key ra = find(a), rb = find(b);
  if (ra == rb)
    return;
  parent[ra] = rb;
  int64_t ca = chunks.lookup(ra), cb = chunks.lookup(rb);
  chunks[rb] = ca && cb ? std::gcd(ca, cb) : ca + cb;
  chunks.erase(ra);
}

void DimClasses::addChunk(Key k, int64_t chunk) {
  Key root = find(k);
  int64_t &have = chunks[root];
  have = have ? std::gcd(have, chunk) : chunk;
}

int64_t DimClasses::getChunk(Value v, int64_t dim) {
  return chunks.lookup(find({v, dim}));
}

DimClasses::DimClasses(func::FuncOp func) {
  func.walk([&](Operation *op) {
    // Only the function's own ops: a body's scalars have no dimensions.
    if (op->getParentOp() != func.getOperation())
      return;
    if (auto rule = dyn_cast<DimClassOpInterface>(op))
      rule.relateDimensions(*this);
  });
}
