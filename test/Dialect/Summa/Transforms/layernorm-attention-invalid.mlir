// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-assign-layouts="grid=2,2,2"

// Heads must divide by q: 3 heads on q = 2. The message names the
// dimension and lists the grids of as many ranks that would work.
func.func @heads_indivisible(%x: tensor<32x12xf32>) -> tensor<8x4x3x4xf32> {
  // expected-error @+1 {{result 0: dimension 2 of size 3 ('tensor<8x4x3x4xf32>') is split over [col] into 2 blocks on grid [2, 2, 2] and is not divisible by 2; grids of 8 ranks that divide every tensor: [1, 1, 8]}}
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [8, 4, 3, 4] : tensor<32x12xf32> into tensor<8x4x3x4xf32>
  return %h : tensor<8x4x3x4xf32>
}

// -----

// The batch must divide by d·q: 2 sequences of 16 tokens on [2,2,2].
func.func @batch_indivisible(%x: tensor<32x16xf32>) -> tensor<2x16x4x4xf32> {
  // expected-error @+1 {{result 0: dimension 0 of size 2 ('tensor<2x16x4x4xf32>') is split over [depth, row] into 4 blocks on grid [2, 2, 2] and is not divisible by 4; no grid of 8 ranks divides every tensor}}
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [2, 16, 4, 4] : tensor<32x16xf32> into tensor<2x16x4x4xf32>
  return %h : tensor<2x16x4x4xf32>
}

// -----

// Merging a split dimension into the one outside it has no block layout.
func.func @inner_split(%y: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %h = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [8, 4, 4, 4] : tensor<32x16xf32> into tensor<8x4x4x4xf32>
  %e = tensor.empty() : tensor<4x8x4x4xf32>
  %t = linalg.transpose ins(%h : tensor<8x4x4x4xf32>) outs(%e : tensor<4x8x4x4xf32>) permutation = [1, 0, 2, 3]
  // expected-error @+1 {{dimension 1 is split over [depth, row] but is not the outermost of the dimensions reshaped into dimension 0; only the outermost may be split}}
  %c = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<4x8x4x4xf32> into tensor<32x16xf32>
  return %c : tensor<32x16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @not_identity(%x: tensor<16x8xf32>) -> tensor<16xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{reduction over a dimension split over [col] needs accumulator 0 filled (linalg.fill) with the identity of sum (0)}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @unknown_combiner(%x: tensor<16x8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{reduction over a dimension split over [col] needs each accumulator combined by one arith.addf, arith.mulf, arith.maximumf or arith.minimumf whose result is yielded}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.subf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

func.func @softmax_split(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  // expected-error @+1 {{softmax over dimension 1, which is split over [col], is not supported; split another dimension}}
  %p = linalg.softmax dimension(1) ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}

// -----

func.func @matvec_split_k(%a: tensor<16x8xf32>, %x: tensor<8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'linalg.matvec' reduces over a dimension split over [col]; only linalg.generic and linalg.reduce can be completed by an all-reduce}}
  %y = linalg.matvec ins(%a, %x : tensor<16x8xf32>, tensor<8xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

func.func @slice_across_tiles(%x: tensor<16x8xf32>) -> tensor<16x4xf32> {
  // expected-error @+1 {{tensor.extract_slice: dimension 1 is split over [col]; a slice must take it whole to stay inside a tile}}
  %s = tensor.extract_slice %x[0, 4] [16, 4] [1, 1] : tensor<16x8xf32> to tensor<16x4xf32>
  return %s : tensor<16x4xf32>
}

// -----

func.func @slice_rank_reducing(%x: tensor<16x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{tensor.extract_slice: only static, unit-stride slices that keep the rank are supported}}
  %s = tensor.extract_slice %x[0, 0] [1, 8] [1, 1] : tensor<16x8xf32> to tensor<8xf32>
  return %s : tensor<8xf32>
}
