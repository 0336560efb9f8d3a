// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,2" -verify-diagnostics

// A batch of 3 with a sequence of 8: depth does not divide the batch, so
// the tokens cannot be one contiguous block per rank; the error names it.
// expected-error @+1 {{argument 0: dimension 0 of size 3 ('tensor<3x8x32xf32>') is split over [depth, row] into 4 blocks on grid [2, 2, 2] and is not divisible by 4}}
func.func @indivisible(%x: tensor<3x8x32xf32> {summa.role = "activation"}) -> tensor<3x8x32xf32> {
  return %x : tensor<3x8x32xf32>
}
