// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-assign-layouts="grid=2,2,2"

// Heads must divide by q: 3 heads on q = 2 would be split unevenly
// (padded blocks), and the padding of a head would land inside the hidden
// dimension the reshape merges it into. The message names the dimension
// and lists the grids of as many ranks that would work.
func.func @heads_indivisible(%x: tensor<32x12xf32>) -> tensor<8x4x3x4xf32> {
  // expected-error @+1 {{'tensor.expand_shape' merges dimensions [3, 4] of tensor<8x4x3x4xf32>, and dimension 2 of tensor<8x4x3x4xf32> (size 3) is split over [col] into 2 uneven blocks on grid [2, 2, 2]; summa pads the last blocks only of a dimension that is not merged with others; grids of 8 ranks that divide every tensor: [1, 1, 8]}}
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [8, 4, 3, 4] : tensor<32x12xf32> into tensor<8x4x3x4xf32>
  return %h : tensor<8x4x3x4xf32>
}

// -----

// The batch must divide by depth (the sequence can take row, a batch of 2
// on [2,2,2] spreads, assign-layouts-small-batch.mlir): 3 sequences of 16
// tokens cannot, and an uneven batch cannot be merged with the sequence.
func.func @batch_indivisible(%x: tensor<48x16xf32>) -> tensor<3x16x4x4xf32> {
  // expected-error @+1 {{'tensor.expand_shape' merges dimensions [3, 16] of tensor<3x16x4x4xf32>, and dimension 0 of tensor<3x16x4x4xf32> (size 3) is split over [depth, row] into 4 uneven blocks on grid [2, 2, 2]; summa pads the last blocks only of a dimension that is not merged with others; no grid of 8 ranks divides every tensor}}
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [3, 16, 4, 4] : tensor<48x16xf32> into tensor<3x16x4x4xf32>
  return %h : tensor<3x16x4x4xf32>
}

// -----

func.func @slice_dynamic(%x: tensor<16x8xf32>) -> tensor<16x4xf32> {
  %at = arith.constant 1 : index
  // expected-error @+1 {{tensor.extract_slice: only static slices are supported (this one has dynamic offsets, sizes or strides)}}
  %s = tensor.extract_slice %x[0, %at] [16, 4] [1, 2] : tensor<16x8xf32> to tensor<16x4xf32>
  return %s : tensor<16x4xf32>
}
