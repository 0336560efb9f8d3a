// A mixture-of-experts router's choice as torch-mlir writes torch.topk:
// the expert indices (an iota), tm_tensor.sort of the scores and indices
// together (descending), the first two of each row; and the scores'
// softmax weights of the chosen two (what the layer scales its experts'
// outputs by), summed into a loss so that summa-differentiate has a path
// through the sort.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#all = affine_map<(d0, d1) -> ()>
func.func @topk(%x: tensor<16x4xf32> {summa.name = "scores", summa.role = "activation"}, %w: tensor<4x4xf32> {summa.name = "router"}) -> (tensor<16x2xf32>, tensor<16x2xi64>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %s = linalg.matmul ins(%x, %w : tensor<16x4xf32>, tensor<4x4xf32>) outs(%f : tensor<16x4xf32>) -> tensor<16x4xf32>
  %ei = tensor.empty() : tensor<16x4xi64>
  %iota = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%ei : tensor<16x4xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    linalg.yield %ji : i64
  } -> tensor<16x4xi64>
  %r:2 = tm_tensor.sort dimension(1) outs(%s, %iota : tensor<16x4xf32>, tensor<16x4xi64>) {
  ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
    %ge = arith.cmpf oge, %a, %b : f32
    tm_tensor.yield %ge : i1
  } -> tensor<16x4xf32>, tensor<16x4xi64>
  %top = tensor.extract_slice %r#0[0, 0] [16, 2] [1, 1] : tensor<16x4xf32> to tensor<16x2xf32>
  %idx = tensor.extract_slice %r#1[0, 0] [16, 2] [1, 1] : tensor<16x4xi64> to tensor<16x2xi64>
  return %top, %idx : tensor<16x2xf32>, tensor<16x2xi64>
}
