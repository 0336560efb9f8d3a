// A transformer MLP block, Y = GeLU(X·W1 + b1)·W2 + b2 + X, written as
// torch-mlir emits it: linalg.matmul on zero-filled accumulators, bias adds
// as linalg.generic with a broadcasting indexing map, GeLU (tanh form)
// decomposed into arith/math scalars inside a linalg.generic.
//
// X[M, h] with M = b·s tokens (here 192 = 8 sequences of 24), h = 96,
// W1[h, 4h], W2[4h, h]. Divisible by every grid of scripts/test.sh:
// [1,1,1], [2,2,1], [1,1,2], [2,2,2], [3,3,1].

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>

func.func @mlp(%x: tensor<192x96xf32>,
               %w1: tensor<96x384xf32>, %b1: tensor<384xf32>,
               %w2: tensor<384x96xf32>, %b2: tensor<96xf32>)
    -> tensor<192x96xf32> {
  %zero = arith.constant 0.000000e+00 : f32

  // H = X·W1 + b1
  %e0 = tensor.empty() : tensor<192x384xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<192x384xf32>) -> tensor<192x384xf32>
  %mm0 = linalg.matmul ins(%x, %w1 : tensor<192x96xf32>, tensor<96x384xf32>)
                       outs(%f0 : tensor<192x384xf32>) -> tensor<192x384xf32>
  %h = linalg.generic {indexing_maps = [#id, #bias, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm0, %b1 : tensor<192x384xf32>, tensor<384xf32>)
      outs(%e0 : tensor<192x384xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<192x384xf32>

  // G = GeLU(H) = 0.5·H·(1 + tanh(sqrt(2/pi)·(H + 0.044715·H³)))
  %g = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<192x384xf32>) outs(%e0 : tensor<192x384xf32>) {
  ^bb0(%in: f32, %out: f32):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %c = arith.constant 0.797884583 : f32
    %k = arith.constant 4.471500e-02 : f32
    %x2 = arith.mulf %in, %in : f32
    %x3 = arith.mulf %x2, %in : f32
    %kx3 = arith.mulf %k, %x3 : f32
    %inner = arith.addf %in, %kx3 : f32
    %scaled = arith.mulf %c, %inner : f32
    %t = math.tanh %scaled : f32
    %onept = arith.addf %one, %t : f32
    %hx = arith.mulf %half, %in : f32
    %r = arith.mulf %hx, %onept : f32
    linalg.yield %r : f32
  } -> tensor<192x384xf32>

  // Y = G·W2 + b2 + X
  %e1 = tensor.empty() : tensor<192x96xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<192x96xf32>) -> tensor<192x96xf32>
  %mm1 = linalg.matmul ins(%g, %w2 : tensor<192x384xf32>, tensor<384x96xf32>)
                       outs(%f1 : tensor<192x96xf32>) -> tensor<192x96xf32>
  %y = linalg.generic {indexing_maps = [#id, #bias, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm1, %b2, %x : tensor<192x96xf32>, tensor<96xf32>, tensor<192x96xf32>)
      outs(%e1 : tensor<192x96xf32>) {
  ^bb0(%in: f32, %b: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %t = arith.addf %s, %res : f32
    linalg.yield %t : f32
  } -> tensor<192x96xf32>
  return %y : tensor<192x96xf32>
}
