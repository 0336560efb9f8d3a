// Two scans as torch-mlir writes them: an inclusive one with a combiner that
// is not commutative (2 * prev + next), along the rows of x, and an exclusive
// sum from 10 down the columns of y. Both results and both accumulators are
// returned.
func.func @scans(%x: tensor<4x6xi64> {summa.name = "x"}, %y: tensor<4x6xf32> {summa.name = "y"})
    -> (tensor<4x6xi64>, tensor<4xi64>, tensor<4x6xf32>, tensor<6xf32>) {
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %ten = arith.constant 10.0 : f32
  %e0 = tensor.empty() : tensor<4x6xi64>
  %e1 = tensor.empty() : tensor<4xi64>
  %o0 = linalg.fill ins(%c0 : i64) outs(%e0 : tensor<4x6xi64>) -> tensor<4x6xi64>
  %a0 = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<4x6xi64>) outs(%o0, %a0 : tensor<4x6xi64>, tensor<4xi64>) {
  ^bb0(%prev: i64, %next: i64):
    %t = arith.muli %prev, %c2 : i64
    %s = arith.addi %t, %next : i64
    tm_tensor.yield %s : i64
  } -> tensor<4x6xi64>, tensor<4xi64>
  %e2 = tensor.empty() : tensor<4x6xf32>
  %e3 = tensor.empty() : tensor<6xf32>
  %a1 = linalg.fill ins(%ten : f32) outs(%e3 : tensor<6xf32>) -> tensor<6xf32>
  %q:2 = tm_tensor.scan dimension(0) inclusive(false) ins(%y : tensor<4x6xf32>) outs(%e2, %a1 : tensor<4x6xf32>, tensor<6xf32>) {
  ^bb0(%prev: f32, %next: f32):
    %s = arith.addf %prev, %next : f32
    tm_tensor.yield %s : f32
  } -> tensor<4x6xf32>, tensor<6xf32>
  return %r#0, %r#1, %q#0, %q#1 : tensor<4x6xi64>, tensor<4xi64>, tensor<4x6xf32>, tensor<6xf32>
}
