// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,2" -verify-diagnostics

// A batch of 3 with a sequence of 8: depth does not divide the batch, so
// the batch is split unevenly, and the tokens cannot be one contiguous
// block per rank once batch and sequence are merged; the error names it.
func.func @indivisible(%x: tensor<3x8x32xf32> {summa.role = "activation"}) -> tensor<24x32xf32> {
  // expected-error @+1 {{'tensor.collapse_shape' merges dimensions [3, 8] of tensor<3x8x32xf32>, and dimension 0 of tensor<3x8x32xf32> (size 3) is split over [depth, row] into 4 uneven blocks on grid [2, 2, 2]; summa pads the last blocks only of a dimension that is not merged with others}}
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x8x32xf32> into tensor<24x32xf32>
  return %c : tensor<24x32xf32>
}
