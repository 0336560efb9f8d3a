func.func @uneven(%x: tensor<6x9xf32> {summa.role = "activation"}, %w: tensor<9x4xf32> {summa.role = "weight"}) -> (tensor<6x1xf32>, tensor<6x4xf32>, tensor<6x9xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<6x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<6x1xf32>) -> tensor<6x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x9xf32>) outs(%f1 : tensor<6x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6x1xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<6x9xf32>, tensor<9x4xf32>) outs(%f2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %e3 = tensor.empty() : tensor<6x9xf32>
  %sm = linalg.softmax dimension(1) ins(%x : tensor<6x9xf32>) outs(%e3 : tensor<6x9xf32>) -> tensor<6x9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%sm, %x : tensor<6x9xf32>, tensor<6x9xf32>) outs(%e3 : tensor<6x9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6x9xf32>
  return %sum, %y, %r : tensor<6x1xf32>, tensor<6x4xf32>, tensor<6x9xf32>
}
