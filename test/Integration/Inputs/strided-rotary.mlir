// Rotary embedding on interleaved pairs (GPT-J, CodeGen, Cohere rotate
// x[..., ::2] and x[..., 1::2]), then a product and a loss; a stride that
// divides no block too (every third column).
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
func.func @rotary(%x: tensor<8x32xf32> {summa.name = "x", summa.role = "activation"}, %w: tensor<32x32xf32> {summa.name = "w"}, %w2: tensor<32x32xf32> {summa.name = "w2"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %even = tensor.extract_slice %y[0, 0] [8, 16] [1, 2] : tensor<8x32xf32> to tensor<8x16xf32>
  %odd = tensor.extract_slice %y[0, 1] [8, 16] [1, 2] : tensor<8x32xf32> to tensor<8x16xf32>
  %eh = tensor.empty() : tensor<8x16xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%even, %odd : tensor<8x16xf32>, tensor<8x16xf32>) outs(%eh, %eh : tensor<8x16xf32>, tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o1: f32, %o2: f32):
    %c = arith.constant 0.6 : f32
    %s = arith.constant 0.8 : f32
    %ac = arith.mulf %a, %c : f32
    %bs = arith.mulf %b, %s : f32
    %bc = arith.mulf %b, %c : f32
    %as = arith.mulf %a, %s : f32
    %first = arith.subf %ac, %bs : f32
    %second = arith.addf %bc, %as : f32
    linalg.yield %first, %second : f32, f32
  } -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %z0 = tensor.insert_slice %r#0 into %f[0, 0] [8, 16] [1, 2] : tensor<8x16xf32> into tensor<8x32xf32>
  %z = tensor.insert_slice %r#1 into %z0[0, 1] [8, 16] [1, 2] : tensor<8x16xf32> into tensor<8x32xf32>
  %o = linalg.matmul ins(%z, %w2 : tensor<8x32xf32>, tensor<32x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %third = tensor.extract_slice %o[0, 2] [8, 10] [1, 3] : tensor<8x32xf32> to tensor<8x10xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l1 = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%o : tensor<8x32xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %sq, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%third : tensor<8x10xf32>) outs(%l1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
