// y[t, h] = x[t, h] + t/100 + h/1000: linalg.index of both split dimensions
// must see global indices on every rank.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @position(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = linalg.index 0 : index
    %h = linalg.index 1 : index
    %ti = arith.index_cast %t : index to i64
    %hi = arith.index_cast %h : index to i64
    %tf = arith.sitofp %ti : i64 to f32
    %hf = arith.sitofp %hi : i64 to f32
    %c100 = arith.constant 1.000000e-02 : f32
    %c1000 = arith.constant 1.000000e-03 : f32
    %a = arith.mulf %tf, %c100 : f32
    %b = arith.mulf %hf, %c1000 : f32
    %s = arith.addf %in, %a : f32
    %r = arith.addf %s, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}
