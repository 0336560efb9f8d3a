// Found with the fuzz target (its UBSan build, on a grid= mutated to large
// sizes): a grid whose rank count q*q*d does not fit in int64_t made
// summa-assign-layouts overflow (AssignLayouts.cpp, the rank
// count of the "grids that divide every tensor" hint; the split factor of
// [depth, row], which wrapped to a negative block count and let a
// non-divisible tensor through to an invalid tile type). Grids are now
// bounded by what MPI can address, in the option and in summa.grid.
//
// RUN: not summa-opt %s --summa-assign-layouts="grid=3037000500,3037000500,2" 2>&1 | FileCheck %s --check-prefix=SQUARE
// RUN: not summa-opt %s --summa-assign-layouts="grid=2,2,9223372036854775807" 2>&1 | FileCheck %s --check-prefix=DEPTH
// RUN: not summa-opt %s --summa-assign-layouts="grid=46341,46341,1" 2>&1 | FileCheck %s --check-prefix=JUST-OVER
// RUN: summa-opt %s --summa-assign-layouts="grid=46340,46340,1" 2>&1 | FileCheck %s --check-prefix=JUST-UNDER

// SQUARE: error: invalid grid [3037000500, 3037000500, 2]: more than 2147483647 ranks (the most MPI can address)
// DEPTH: error: invalid grid [2, 2, 9223372036854775807]: more than 2147483647 ranks (the most MPI can address)
// JUST-OVER: error: invalid grid [46341, 46341, 1]: more than 2147483647 ranks (the most MPI can address)
// The largest grid MPI can address lays out an 8 x 8 product in uneven
// blocks (one element on the first eight ranks of a row or column, padding
// on the others), without overflowing.
// JUST-UNDER: summa.grid @grid shape = [46340, 46340, 1]
// JUST-UNDER: func.func @f(%arg0: tensor<8x8xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}depth, row], [col]]>}

func.func @f(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %c = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
