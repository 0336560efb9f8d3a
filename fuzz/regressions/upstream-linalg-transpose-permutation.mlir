// Upstream MLIR 22 crash (not summa's): a malformed permutation array makes
// linalg.transpose's parser store a null attribute and dereference it (SEGV
// in NamedAttrList::set); mlir-opt-22 crashes on this file too. The fuzz
// target skips such inputs (tripsKnownUpstreamCrash); this must run clean.
func.func @f(%a: tensor<2x4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %t = linalg.transpose ins(%a : tensor<2x4xf32>) outs(%b : tensor<4x2xf32>) permutation = [1, 0
  return %t : tensor<4x2xf32>
}
