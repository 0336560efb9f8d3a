// A training step of the MLP block Y = GeLU(X·W1 + b1)·W2 + b2 + X: forward, loss, backward, update.
// Written as torch-mlir emits it (linalg on tensors). Generated, do not edit:
//   python3 examples/generate.py mlp_train --batch 4 --seq 12 --hidden 24 --ffn 96 --dtype f32 --gelu tanh --optimizer adam --lr 0.001 --loss mse -o examples/mlp_train_adam.mlir
//
// Tokens T = batch·seq = 4·12 = 48 (token t = b·seq + s), hidden 24, ffn 96, f32.
// GeLU in tanh form.
// Loss: mean squared error, sum over t, h of (Y - target)^2 / (T·H).
// Update: Adam, step 1: lr 0.001, beta1 0.9, beta2 0.999, eps 1e-08, bias corrections
// 1/(1 - beta1) and 1/(1 - beta2). The moments m_<p>, then v_<p>, follow the parameters;
// v_<p> has summa.init = "nonnegative".
// Arguments carry summa.role = "activation" | "weight" | "bias"; weights are [in, out].
// Results: loss (tensor<1xf32>), the gradient of every parameter, then the updated
// parameters, the updated m's and the updated v's, each list in argument order.

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#vec = affine_map<(d0) -> (d0)>
#loss = affine_map<(d0, d1) -> (0)>
#mm_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#mm_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#mm_at = affine_map<(d0, d1, d2) -> (d2, d0)>
#mm_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#mm_c = affine_map<(d0, d1, d2) -> (d0, d1)>

func.func @mlp_train_step(%x: tensor<48x24xf32> {summa.role = "activation"},
                          %target: tensor<48x24xf32> {summa.role = "activation"},
                          %w1: tensor<24x96xf32> {summa.role = "weight"},
                          %b1: tensor<96xf32> {summa.role = "bias"},
                          %w2: tensor<96x24xf32> {summa.role = "weight"},
                          %b2: tensor<24xf32> {summa.role = "bias"},
                          %m_w1: tensor<24x96xf32> {summa.role = "weight"},
                          %m_b1: tensor<96xf32> {summa.role = "bias"},
                          %m_w2: tensor<96x24xf32> {summa.role = "weight"},
                          %m_b2: tensor<24xf32> {summa.role = "bias"},
                          %v_w1: tensor<24x96xf32> {summa.role = "weight", summa.init = "nonnegative"},
                          %v_b1: tensor<96xf32> {summa.role = "bias", summa.init = "nonnegative"},
                          %v_w2: tensor<96x24xf32> {summa.role = "weight", summa.init = "nonnegative"},
                          %v_b2: tensor<24xf32> {summa.role = "bias", summa.init = "nonnegative"})
    -> (tensor<1xf32>,                                   // loss
        tensor<24x96xf32>,                               // d w1
        tensor<96xf32>,                                  // d b1
        tensor<96x24xf32>,                               // d w2
        tensor<24xf32>,                                  // d b2
        tensor<24x96xf32> {summa.updates = 2 : i64},     // w1 updated
        tensor<96xf32> {summa.updates = 3 : i64},        // b1 updated
        tensor<96x24xf32> {summa.updates = 4 : i64},     // w2 updated
        tensor<24xf32> {summa.updates = 5 : i64},        // b2 updated
        tensor<24x96xf32> {summa.updates = 6 : i64},     // m_w1 updated
        tensor<96xf32> {summa.updates = 7 : i64},        // m_b1 updated
        tensor<96x24xf32> {summa.updates = 8 : i64},     // m_w2 updated
        tensor<24xf32> {summa.updates = 9 : i64},        // m_b2 updated
        tensor<24x96xf32> {summa.updates = 10 : i64},    // v_w1 updated
        tensor<96xf32> {summa.updates = 11 : i64},       // v_b1 updated
        tensor<96x24xf32> {summa.updates = 12 : i64},    // v_w2 updated
        tensor<24xf32> {summa.updates = 13 : i64}) {     // v_b2 updated
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

  // ===== backward =====

  // backward of Y = G·W2 + b2 + X: dW2 = Gᵀ·dY, db2 = sum dY, dG = dY·W2ᵀ
  // (X is an input: no dX)
  %grad_w2_e = tensor.empty() : tensor<96x24xf32>
  %grad_w2_init = linalg.fill ins(%zero : f32) outs(%grad_w2_e : tensor<96x24xf32>) -> tensor<96x24xf32>
  %grad_w2 = linalg.matmul indexing_maps = [#mm_at, #mm_b, #mm_c]
                           ins(%g, %d_y : tensor<48x96xf32>, tensor<48x24xf32>)
                           outs(%grad_w2_init : tensor<96x24xf32>) -> tensor<96x24xf32>
  %grad_b2_e = tensor.empty() : tensor<24xf32>
  %grad_b2_init = linalg.fill ins(%zero : f32) outs(%grad_b2_e : tensor<24xf32>) -> tensor<24xf32>
  %grad_b2 = linalg.generic {indexing_maps = [#id, #bias],
                             iterator_types = ["reduction", "parallel"]}
      ins(%d_y : tensor<48x24xf32>)
      outs(%grad_b2_init : tensor<24xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  %d_g_e = tensor.empty() : tensor<48x96xf32>
  %d_g_init = linalg.fill ins(%zero : f32) outs(%d_g_e : tensor<48x96xf32>) -> tensor<48x96xf32>
  %d_g = linalg.matmul indexing_maps = [#mm_a, #mm_bt, #mm_c]
                       ins(%d_y, %w2 : tensor<48x24xf32>, tensor<96x24xf32>)
                       outs(%d_g_init : tensor<48x96xf32>) -> tensor<48x96xf32>

  // backward of GeLU (tanh form)
  %d_h_e = tensor.empty() : tensor<48x96xf32>
  %d_h = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%d_g, %h : tensor<48x96xf32>, tensor<48x96xf32>)
      outs(%d_h_e : tensor<48x96xf32>) {
  ^bb0(%dy: f32, %in: f32, %out: f32):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %c = arith.constant 0.797884583 : f32
    %k = arith.constant 4.471500e-02 : f32
    %k3 = arith.constant 1.341450e-01 : f32
    %x2 = arith.mulf %in, %in : f32
    %x3 = arith.mulf %x2, %in : f32
    %kx3 = arith.mulf %k, %x3 : f32
    %inner = arith.addf %in, %kx3 : f32
    %scaled = arith.mulf %c, %inner : f32
    %t = math.tanh %scaled : f32
    %onept = arith.addf %one, %t : f32
    %lo = arith.mulf %half, %onept : f32
    %tt = arith.mulf %t, %t : f32
    %sech = arith.subf %one, %tt : f32
    %kx2 = arith.mulf %k3, %x2 : f32
    %dinner = arith.addf %one, %kx2 : f32
    %dsc = arith.mulf %c, %dinner : f32
    %hx = arith.mulf %half, %in : f32
    %w = arith.mulf %hx, %sech : f32
    %hi = arith.mulf %w, %dsc : f32
    %dg = arith.addf %lo, %hi : f32
    %r = arith.mulf %dy, %dg : f32
    linalg.yield %r : f32
  } -> tensor<48x96xf32>

  // backward of H = X·W1 + b1: dW1 = Xᵀ·dH, db1 = sum dH
  %grad_w1_e = tensor.empty() : tensor<24x96xf32>
  %grad_w1_init = linalg.fill ins(%zero : f32) outs(%grad_w1_e : tensor<24x96xf32>) -> tensor<24x96xf32>
  %grad_w1 = linalg.matmul indexing_maps = [#mm_at, #mm_b, #mm_c]
                           ins(%x, %d_h : tensor<48x24xf32>, tensor<48x96xf32>)
                           outs(%grad_w1_init : tensor<24x96xf32>) -> tensor<24x96xf32>
  %grad_b1_e = tensor.empty() : tensor<96xf32>
  %grad_b1_init = linalg.fill ins(%zero : f32) outs(%grad_b1_e : tensor<96xf32>) -> tensor<96xf32>
  %grad_b1 = linalg.generic {indexing_maps = [#id, #bias],
                             iterator_types = ["reduction", "parallel"]}
      ins(%d_h : tensor<48x96xf32>)
      outs(%grad_b1_init : tensor<96xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<96xf32>

  // ===== optimizer =====

  // Adam, step 1 (beta1 0.9, beta2 0.999, eps 1e-08, lr 0.001):
  //   m' = beta1·m + (1 - beta1)·dp;  v' = beta2·v + (1 - beta2)·dp²;
  //   p' = p - lr·(m'/(1 - beta1)) / (sqrt(v'/(1 - beta2)) + eps)
  %new_m_w1_e = tensor.empty() : tensor<24x96xf32>
  %new_m_w1 = linalg.generic {indexing_maps = [#id, #id, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%m_w1, %grad_w1 : tensor<24x96xf32>, tensor<24x96xf32>)
      outs(%new_m_w1_e : tensor<24x96xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta1 = arith.constant 9.000000e-01 : f32
    %omb1 = arith.constant 1.000000e-01 : f32
    %a = arith.mulf %beta1, %in : f32
    %upd = arith.mulf %omb1, %gr : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<24x96xf32>
  %new_v_w1_e = tensor.empty() : tensor<24x96xf32>
  %new_v_w1 = linalg.generic {indexing_maps = [#id, #id, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%v_w1, %grad_w1 : tensor<24x96xf32>, tensor<24x96xf32>)
      outs(%new_v_w1_e : tensor<24x96xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta2 = arith.constant 9.990000e-01 : f32
    %omb2 = arith.constant 1.000000e-03 : f32
    %a = arith.mulf %beta2, %in : f32
    %g2 = arith.mulf %gr, %gr : f32
    %upd = arith.mulf %omb2, %g2 : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<24x96xf32>
  %new_w1_e = tensor.empty() : tensor<24x96xf32>
  %new_w1 = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%w1, %new_m_w1, %new_v_w1 : tensor<24x96xf32>, tensor<24x96xf32>, tensor<24x96xf32>)
      outs(%new_w1_e : tensor<24x96xf32>) {
  ^bb0(%in: f32, %mo: f32, %vo: f32, %out: f32):
    %lr = arith.constant 1.000000e-03 : f32
    %bc1 = arith.constant 1.000000e+01 : f32
    %bc2 = arith.constant 1.000000e+03 : f32
    %eps = arith.constant 1.000000e-08 : f32
    %mh = arith.mulf %mo, %bc1 : f32
    %vh = arith.mulf %vo, %bc2 : f32
    %sqv = math.sqrt %vh : f32
    %den = arith.addf %sqv, %eps : f32
    %q = arith.divf %mh, %den : f32
    %upd = arith.mulf %lr, %q : f32
    %r = arith.subf %in, %upd : f32
    linalg.yield %r : f32
  } -> tensor<24x96xf32>
  %new_m_b1_e = tensor.empty() : tensor<96xf32>
  %new_m_b1 = linalg.generic {indexing_maps = [#vec, #vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%m_b1, %grad_b1 : tensor<96xf32>, tensor<96xf32>)
      outs(%new_m_b1_e : tensor<96xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta1 = arith.constant 9.000000e-01 : f32
    %omb1 = arith.constant 1.000000e-01 : f32
    %a = arith.mulf %beta1, %in : f32
    %upd = arith.mulf %omb1, %gr : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<96xf32>
  %new_v_b1_e = tensor.empty() : tensor<96xf32>
  %new_v_b1 = linalg.generic {indexing_maps = [#vec, #vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%v_b1, %grad_b1 : tensor<96xf32>, tensor<96xf32>)
      outs(%new_v_b1_e : tensor<96xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta2 = arith.constant 9.990000e-01 : f32
    %omb2 = arith.constant 1.000000e-03 : f32
    %a = arith.mulf %beta2, %in : f32
    %g2 = arith.mulf %gr, %gr : f32
    %upd = arith.mulf %omb2, %g2 : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<96xf32>
  %new_b1_e = tensor.empty() : tensor<96xf32>
  %new_b1 = linalg.generic {indexing_maps = [#vec, #vec, #vec, #vec],
                            iterator_types = ["parallel"]}
      ins(%b1, %new_m_b1, %new_v_b1 : tensor<96xf32>, tensor<96xf32>, tensor<96xf32>)
      outs(%new_b1_e : tensor<96xf32>) {
  ^bb0(%in: f32, %mo: f32, %vo: f32, %out: f32):
    %lr = arith.constant 1.000000e-03 : f32
    %bc1 = arith.constant 1.000000e+01 : f32
    %bc2 = arith.constant 1.000000e+03 : f32
    %eps = arith.constant 1.000000e-08 : f32
    %mh = arith.mulf %mo, %bc1 : f32
    %vh = arith.mulf %vo, %bc2 : f32
    %sqv = math.sqrt %vh : f32
    %den = arith.addf %sqv, %eps : f32
    %q = arith.divf %mh, %den : f32
    %upd = arith.mulf %lr, %q : f32
    %r = arith.subf %in, %upd : f32
    linalg.yield %r : f32
  } -> tensor<96xf32>
  %new_m_w2_e = tensor.empty() : tensor<96x24xf32>
  %new_m_w2 = linalg.generic {indexing_maps = [#id, #id, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%m_w2, %grad_w2 : tensor<96x24xf32>, tensor<96x24xf32>)
      outs(%new_m_w2_e : tensor<96x24xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta1 = arith.constant 9.000000e-01 : f32
    %omb1 = arith.constant 1.000000e-01 : f32
    %a = arith.mulf %beta1, %in : f32
    %upd = arith.mulf %omb1, %gr : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<96x24xf32>
  %new_v_w2_e = tensor.empty() : tensor<96x24xf32>
  %new_v_w2 = linalg.generic {indexing_maps = [#id, #id, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%v_w2, %grad_w2 : tensor<96x24xf32>, tensor<96x24xf32>)
      outs(%new_v_w2_e : tensor<96x24xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta2 = arith.constant 9.990000e-01 : f32
    %omb2 = arith.constant 1.000000e-03 : f32
    %a = arith.mulf %beta2, %in : f32
    %g2 = arith.mulf %gr, %gr : f32
    %upd = arith.mulf %omb2, %g2 : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<96x24xf32>
  %new_w2_e = tensor.empty() : tensor<96x24xf32>
  %new_w2 = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%w2, %new_m_w2, %new_v_w2 : tensor<96x24xf32>, tensor<96x24xf32>, tensor<96x24xf32>)
      outs(%new_w2_e : tensor<96x24xf32>) {
  ^bb0(%in: f32, %mo: f32, %vo: f32, %out: f32):
    %lr = arith.constant 1.000000e-03 : f32
    %bc1 = arith.constant 1.000000e+01 : f32
    %bc2 = arith.constant 1.000000e+03 : f32
    %eps = arith.constant 1.000000e-08 : f32
    %mh = arith.mulf %mo, %bc1 : f32
    %vh = arith.mulf %vo, %bc2 : f32
    %sqv = math.sqrt %vh : f32
    %den = arith.addf %sqv, %eps : f32
    %q = arith.divf %mh, %den : f32
    %upd = arith.mulf %lr, %q : f32
    %r = arith.subf %in, %upd : f32
    linalg.yield %r : f32
  } -> tensor<96x24xf32>
  %new_m_b2_e = tensor.empty() : tensor<24xf32>
  %new_m_b2 = linalg.generic {indexing_maps = [#vec, #vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%m_b2, %grad_b2 : tensor<24xf32>, tensor<24xf32>)
      outs(%new_m_b2_e : tensor<24xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta1 = arith.constant 9.000000e-01 : f32
    %omb1 = arith.constant 1.000000e-01 : f32
    %a = arith.mulf %beta1, %in : f32
    %upd = arith.mulf %omb1, %gr : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  %new_v_b2_e = tensor.empty() : tensor<24xf32>
  %new_v_b2 = linalg.generic {indexing_maps = [#vec, #vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%v_b2, %grad_b2 : tensor<24xf32>, tensor<24xf32>)
      outs(%new_v_b2_e : tensor<24xf32>) {
  ^bb0(%in: f32, %gr: f32, %out: f32):
    %beta2 = arith.constant 9.990000e-01 : f32
    %omb2 = arith.constant 1.000000e-03 : f32
    %a = arith.mulf %beta2, %in : f32
    %g2 = arith.mulf %gr, %gr : f32
    %upd = arith.mulf %omb2, %g2 : f32
    %r = arith.addf %a, %upd : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  %new_b2_e = tensor.empty() : tensor<24xf32>
  %new_b2 = linalg.generic {indexing_maps = [#vec, #vec, #vec, #vec],
                            iterator_types = ["parallel"]}
      ins(%b2, %new_m_b2, %new_v_b2 : tensor<24xf32>, tensor<24xf32>, tensor<24xf32>)
      outs(%new_b2_e : tensor<24xf32>) {
  ^bb0(%in: f32, %mo: f32, %vo: f32, %out: f32):
    %lr = arith.constant 1.000000e-03 : f32
    %bc1 = arith.constant 1.000000e+01 : f32
    %bc2 = arith.constant 1.000000e+03 : f32
    %eps = arith.constant 1.000000e-08 : f32
    %mh = arith.mulf %mo, %bc1 : f32
    %vh = arith.mulf %vo, %bc2 : f32
    %sqv = math.sqrt %vh : f32
    %den = arith.addf %sqv, %eps : f32
    %q = arith.divf %mh, %den : f32
    %upd = arith.mulf %lr, %q : f32
    %r = arith.subf %in, %upd : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  return %loss, %grad_w1, %grad_b1, %grad_w2, %grad_b2, %new_w1, %new_b1, %new_w2, %new_b2,
         %new_m_w1, %new_m_b1, %new_m_w2, %new_m_b2, %new_v_w1, %new_v_b1, %new_v_w2, %new_v_b2
      : tensor<1xf32>, tensor<24x96xf32>, tensor<96xf32>, tensor<96x24xf32>, tensor<24xf32>,
        tensor<24x96xf32>, tensor<96xf32>, tensor<96x24xf32>, tensor<24xf32>, tensor<24x96xf32>,
        tensor<96xf32>, tensor<96x24xf32>, tensor<24xf32>, tensor<24x96xf32>, tensor<96xf32>,
        tensor<96x24xf32>, tensor<24xf32>
}
