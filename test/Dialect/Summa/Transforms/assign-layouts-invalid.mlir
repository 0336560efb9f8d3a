// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-assign-layouts="grid=2,2,2"

// expected-error @+1 {{argument 0: dimension 0 of 'tensor<?x8xf32>' is dynamic; summa needs static shapes}}
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  return %x : tensor<?x8xf32>
}

// -----

// An empty tensor is refused here, with its dimension, not later by the
// bufferized collectives.
// expected-error @+1 {{argument 0: dimension 1 of 'tensor<8x0xf32>' has size 0; summa needs tensors with elements}}
func.func @empty(%x: tensor<8x0xf32>) -> tensor<8x0xf32> {
  return %x : tensor<8x0xf32>
}

// -----

// A dynamic batch, as torch.export writes one with dynamic_shapes.
// expected-error @+1 {{argument 0: dimension 0 of 'tensor<?x32xf32>' is dynamic; summa needs static shapes (export the model with static shapes)}}
func.func @dynamic_batch(%x: tensor<?x32xf32>) -> index {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x32xf32>
  return %d : index
}

// -----

// expected-error @+1 {{argument 0 has type 'memref<8x8xf32>'; summa needs ranked tensors}}
func.func @memref_argument(%x: memref<8x8xf32>) {
  return
}

// -----

// expected-error @+1 {{argument 0 is a weight and must have rank 2, got 'tensor<8xf32>'}}
func.func @weight_rank(%x: tensor<8xf32> {summa.role = "weight"}) {
  return
}

// -----

func.func @unknown_op(%x: tensor<8x8xf32>, %s: tensor<1xi64>) -> tensor<64xf32> {
  // expected-error @+1 {{'tensor.reshape' is not supported by summa (no layout rule)}}
  %r = tensor.reshape %x(%s) : (tensor<8x8xf32>, tensor<1xi64>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @insert_rank_change(%x: tensor<8xf32>, %d: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{tensor.insert_slice: only slices of the destination's rank are supported}}
  %r = tensor.insert_slice %x into %d[0, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @pad_dynamic(%x: tensor<8x8xf32>, %s: tensor<1xindex> {summa.role = "replicated"}) -> tensor<?x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.extract %s[%c0] : tensor<1xindex>
  // expected-error @+1 {{tensor.pad: only static padding is supported}}
  %p = tensor.pad %x low[%n, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x8xf32> to tensor<?x8xf32>
  return %p : tensor<?x8xf32>
}
