// The loss of the MLP block Y = GeLU(X·W1 + b1)·W2 + b2 + X: forward and MSE loss only, the input of summa-differentiate.
// Written as torch-mlir emits it (linalg on tensors). Generated, do not edit:
//   python3 examples/generate.py mlp_train --batch 4 --seq 12 --hidden 24 --ffn 96 --dtype f32 --gelu tanh --loss mse --forward-only -o examples/mlp_loss.mlir
//
// Tokens T = batch·seq = 4·12 = 48 (token t = b·seq + s), hidden 24, ffn 96, f32.
// GeLU in tanh form.
// Loss: mean squared error, sum over t, h of (Y - target)^2 / (T·H).
// Update: SGD, p' = p - lr·dp, lr 0.01.
// Arguments carry summa.role = "activation" | "weight" | "bias"; weights are [in, out].
// Results: loss (tensor<1xf32>), the gradient of every parameter, then the updated
// parameters, each list in argument order.

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#loss = affine_map<(d0, d1) -> (0)>

func.func @mlp_loss(%x: tensor<48x24xf32> {summa.role = "activation"},
                    %target: tensor<48x24xf32> {summa.role = "activation"},
                    %w1: tensor<24x96xf32> {summa.role = "weight"},
                    %b1: tensor<96xf32> {summa.role = "bias"},
                    %w2: tensor<96x24xf32> {summa.role = "weight"},
                    %b2: tensor<24xf32> {summa.role = "bias"})
    -> tensor<1xf32> {
  %zero = arith.constant 0.000000e+00 : f32

  // H = X·W1 + b1
  %h_mm_e = tensor.empty() : tensor<48x96xf32>
  %h_mm_init = linalg.fill ins(%zero : f32) outs(%h_mm_e : tensor<48x96xf32>) -> tensor<48x96xf32>
  %h_mm = linalg.matmul ins(%x, %w1 : tensor<48x24xf32>, tensor<24x96xf32>)
                        outs(%h_mm_init : tensor<48x96xf32>) -> tensor<48x96xf32>
  %h_e = tensor.empty() : tensor<48x96xf32>
  %h = linalg.generic {indexing_maps = [#id, #bias, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h_mm, %b1 : tensor<48x96xf32>, tensor<96xf32>)
      outs(%h_e : tensor<48x96xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<48x96xf32>

  // G = GeLU(H), tanh form
  %g_e = tensor.empty() : tensor<48x96xf32>
  %g = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<48x96xf32>)
      outs(%g_e : tensor<48x96xf32>) {
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
  } -> tensor<48x96xf32>

  // Y = G·W2 + b2 + X
  %y_mm_e = tensor.empty() : tensor<48x24xf32>
  %y_mm_init = linalg.fill ins(%zero : f32) outs(%y_mm_e : tensor<48x24xf32>) -> tensor<48x24xf32>
  %y_mm = linalg.matmul ins(%g, %w2 : tensor<48x96xf32>, tensor<96x24xf32>)
                        outs(%y_mm_init : tensor<48x24xf32>) -> tensor<48x24xf32>
  %y_e = tensor.empty() : tensor<48x24xf32>
  %y = linalg.generic {indexing_maps = [#id, #bias, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y_mm, %b2, %x : tensor<48x24xf32>, tensor<24xf32>, tensor<48x24xf32>)
      outs(%y_e : tensor<48x24xf32>) {
  ^bb0(%in: f32, %b: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %t = arith.addf %s, %res : f32
    linalg.yield %t : f32
  } -> tensor<48x24xf32>

  // ===== loss =====

  // loss = sum over t, h of (%y - target)^2 / (T·H), T·H = 1152
  %loss_e = tensor.empty() : tensor<1xf32>
  %loss_init = linalg.fill ins(%zero : f32) outs(%loss_e : tensor<1xf32>) -> tensor<1xf32>
  %loss = linalg.generic {indexing_maps = [#id, #id, #loss],
                          iterator_types = ["reduction", "reduction"]}
      ins(%y, %target : tensor<48x24xf32>, tensor<48x24xf32>)
      outs(%loss_init : tensor<1xf32>) {
  ^bb0(%in: f32, %tg: f32, %acc: f32):
    %inv = arith.constant 8.68055556e-04 : f32
    %d = arith.subf %in, %tg : f32
    %sq = arith.mulf %d, %d : f32
    %v = arith.mulf %sq, %inv : f32
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>

  // dY = 2 (%y - target) / (T·H)
  %d_y_e = tensor.empty() : tensor<48x24xf32>
  %d_y = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%y, %target : tensor<48x24xf32>, tensor<48x24xf32>)
      outs(%d_y_e : tensor<48x24xf32>) {
  ^bb0(%in: f32, %tg: f32, %out: f32):
    %two = arith.constant 1.73611111e-03 : f32
    %d = arith.subf %in, %tg : f32
    %r = arith.mulf %d, %two : f32
    linalg.yield %r : f32
  } -> tensor<48x24xf32>
  return %loss : tensor<1xf32>
}
