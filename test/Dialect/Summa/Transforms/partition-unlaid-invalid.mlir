// RUN: summa-opt %s -verify-diagnostics --summa-partition

summa.grid @grid shape = [2, 2, 1]
// A function that summa-assign-layouts has not seen cannot be partitioned.
// expected-error @+1 {{value of type 'tensor<4x4xf32>' has no layout; run summa-assign-layouts first}}
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %x : tensor<4x4xf32>
}
