// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-assign-layouts="grid=2,2,2"

func.func @slice_dynamic(%x: tensor<16x8xf32>) -> tensor<16x4xf32> {
  %at = arith.constant 1 : index
  // expected-error @+1 {{tensor.extract_slice: only static sizes and strides are supported (this one has dynamic sizes or strides)}}
  %s = tensor.extract_slice %x[0, 0] [16, 4] [1, %at] : tensor<16x8xf32> to tensor<16x4xf32>
  return %s : tensor<16x4xf32>
}
