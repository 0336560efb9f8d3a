// RUN: summa-opt %s --pass-pipeline="builtin.module(func.func(summa-tile-attention{tile-elements=0}))" -verify-diagnostics -o /dev/null

// expected-error @below {{summa-tile-attention: tile-elements must be at least 1, got 0}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
