// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -verify-diagnostics -o /dev/null

// Every collective summa-partition introduces is reported at the op that
// causes it.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @causes(%x: tensor<16x8xf32>, %w: tensor<8x8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{2.5D SUMMA matmul: 2 steps, each a summa.broadcast of the lhs panel along the rows (axes [col]) and of the rhs panel along the columns (axes [row])}}
  %mm = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @+1 {{reduces over a dimension split over [col]: summa.all_reduce (sum) of result 0 over axes [col]}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%mm : tensor<16x8xf32>) outs(%f1 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    // expected-remark @+1 {{linalg.index 1 offset by this rank's block over [col]}}
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %w8 = arith.mulf %a, %jf : f32
    %r = arith.addf %w8, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}
