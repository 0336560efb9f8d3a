// RUN: summa-opt %s -split-input-file -verify-diagnostics

func.func @index_columns(%u: tensor<4x8xf32>, %ids: tensor<4x2xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op dimension_map has 1 entries for 2 index columns}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf32>, tensor<4x2xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @not_a_dimension(%u: tensor<4x8xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op dimension_map entry 2 is not a dimension of 'tensor<16x8xf32>'}}
  %r = summa.scatter dimension_map = [2] ins(%u, %ids : tensor<4x8xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @twice(%u: tensor<4xf32>, %ids: tensor<4x2xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op dimension_map names dimension 0 twice}}
  %r = summa.scatter dimension_map = [0, 0] ins(%u, %ids : tensor<4xf32>, tensor<4x2xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @updates_rank(%u: tensor<4xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op updates must have rank 1 + 1 (batch, then one dimension per dimension of the original not in dimension_map), got 'tensor<4xf32>'}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @batch(%u: tensor<3x8xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op batch dimension 0 is 4 in the indices and 3 in the updates}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<3x8xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @slice_too_long(%u: tensor<4x9xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op slice dimension 0 of the updates (9) is larger than dimension 1 of the original (8)}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x9xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @float_indices(%u: tensor<4x8xf32>, %ids: tensor<4x1xf32>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op indices must be integers, got 'f32'}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf32>, tensor<4x1xf32>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @element_types(%u: tensor<4x8xf64>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op updates of 'f64' into a tensor of 'f32'}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf64>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @combiner(%u: tensor<4x8xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'summa.scatter' op combiner must take (update, current) of 'f32'}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

func.func @mixed(%u: tensor<4x8xf32>, %ids: tensor<4x1xi64>, %t: memref<16x8xf32>) {
  // expected-error @+1 {{'summa.scatter' op takes tensors or buffers, not both}}
  summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf32>, tensor<4x1xi64>) outs(%t : memref<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  }
  return
}

// -----

func.func @no_result(%u: tensor<4x8xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) {
  // expected-error @+1 {{'summa.scatter' op on tensors returns the new tensor}}
  summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  }
  return
}
