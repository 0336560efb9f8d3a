// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-assign-layouts="grid=2,2,2"

// Heads must divide cc: f32):
    // expected-remark @+1 {{linalg.index 1 offset by this rank's block over [col]}}
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %w8 = arith.mulf %a, %jf : f32
    %r = arith.addf %w8, %acc : f32
    linalgnto 2 blo*cks on grid [2, 2, 2] and is not divisible by 2; grids of 8 ranks that divide every tensor: [1, 1, 8]}}
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [8, 4, 3, 4] : tensor<32x12xf32> into tensor<8x4x3x4xf32>
  return %h : tensor<8x4x3x4xf32>
}

