// One pre-LN GPT-2 block: H = X + Attn(LN1(X)); Y = H + MLP(LN2(H)), causal attention.
// Written as torch-mlir emits it (linalg on tensors). Generated, do not edit:
//   python3 examples/generate.py layer --batch 4 --seq 8 --hidden 32 --heads 4 --ffn 128 --dtype f32 --softmax decomposed --gelu tanh -o examples/gpt_layer.mlir
//
// Tokens T = batch·seq = 4·8 = 32 (token t = b·seq + s), hidden 32, heads 4 of dim 8, ffn 128, f32.
// Softmax decomposed, LayerNorm eps 1e-5; GeLU in tanh form.
// Arguments carry summa.role = "activation" | "weight" | "bias"; weights are [in, out].

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#last4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#qk_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
#qk_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
#qk_s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#pv_p = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#pv_v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>
#pv_c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3)>

func.func @gpt_layer(%x: tensor<32x32xf32> {summa.role = "activation"},
                     %ln1_gamma: tensor<32xf32> {summa.role = "bias"},
                     %ln1_beta: tensor<32xf32> {summa.role = "bias"},
                     %wq: tensor<32x32xf32> {summa.role = "weight"},
                     %bq: tensor<32xf32> {summa.role = "bias"},
                     %wk: tensor<32x32xf32> {summa.role = "weight"},
                     %bk: tensor<32xf32> {summa.role = "bias"},
                     %wv: tensor<32x32xf32> {summa.role = "weight"},
                     %bv: tensor<32xf32> {summa.role = "bias"},
                     %wo: tensor<32x32xf32> {summa.role = "weight"},
                     %bo: tensor<32xf32> {summa.role = "bias"},
                     %ln2_gamma: tensor<32xf32> {summa.role = "bias"},
                     %ln2_beta: tensor<32xf32> {summa.role = "bias"},
                     %w1: tensor<32x128xf32> {summa.role = "weight"},
                     %b1: tensor<128xf32> {summa.role = "bias"},
                     %w2: tensor<128x32xf32> {summa.role = "weight"},
                     %b2: tensor<32xf32> {summa.role = "bias"})
    -> tensor<32x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // LN1 = LayerNorm(%x) over the hidden dim:
  //   sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;
  //   rstd = rsqrt(var + eps); out = c·rstd·gamma + beta
  %ln1_sum_e = tensor.empty() : tensor<32xf32>
  %ln1_sum_init = linalg.fill ins(%zero : f32) outs(%ln1_sum_e : tensor<32xf32>) -> tensor<32xf32>
  %ln1_sum = linalg.generic {indexing_maps = [#id, #row],
                             iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x32xf32>)
      outs(%ln1_sum_init : tensor<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %ln1_mean_e = tensor.empty() : tensor<32xf32>
  %ln1_mean = linalg.generic {indexing_maps = [#vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%ln1_sum : tensor<32xf32>)
      outs(%ln1_mean_e : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %r = arith.divf %in, %hid : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %ln1_c_e = tensor.empty() : tensor<32x32xf32>
  %ln1_c = linalg.generic {indexing_maps = [#id, #row, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%x, %ln1_mean : tensor<32x32xf32>, tensor<32xf32>)
      outs(%ln1_c_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  } -> tensor<32x32xf32>
  %ln1_var_e = tensor.empty() : tensor<32xf32>
  %ln1_var_init = linalg.fill ins(%zero : f32) outs(%ln1_var_e : tensor<32xf32>) -> tensor<32xf32>
  %ln1_var = linalg.generic {indexing_maps = [#id, #row],
                             iterator_types = ["parallel", "reduction"]}
      ins(%ln1_c : tensor<32x32xf32>)
      outs(%ln1_var_init : tensor<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %ln1_rstd_e = tensor.empty() : tensor<32xf32>
  %ln1_rstd = linalg.generic {indexing_maps = [#vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%ln1_var : tensor<32xf32>)
      outs(%ln1_rstd_e : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %v = arith.divf %in, %hid : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %ln1_e = tensor.empty() : tensor<32x32xf32>
  %ln1 = linalg.generic {indexing_maps = [#id, #row, #bias, #bias, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%ln1_c, %ln1_rstd, %ln1_gamma, %ln1_beta : tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%ln1_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %r: f32, %gm: f32, %bt: f32, %out: f32):
    %n = arith.mulf %in, %r : f32
    %s = arith.mulf %n, %gm : f32
    %t = arith.addf %s, %bt : f32
    linalg.yield %t : f32
  } -> tensor<32x32xf32>

  // Q, K, V = LN1·Wq + bq, LN1·Wk + bk, LN1·Wv + bv
  %query_mm_e = tensor.empty() : tensor<32x32xf32>
  %query_mm_init = linalg.fill ins(%zero : f32) outs(%query_mm_e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %query_mm = linalg.matmul ins(%ln1, %wq : tensor<32x32xf32>, tensor<32x32xf32>)
                            outs(%query_mm_init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %query_e = tensor.empty() : tensor<32x32xf32>
  %query = linalg.generic {indexing_maps = [#id, #bias, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%query_mm, %bq : tensor<32x32xf32>, tensor<32xf32>)
      outs(%query_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %query_heads = tensor.expand_shape %query [[0, 1], [2, 3]] output_shape [4, 8, 4, 8] : tensor<32x32xf32> into tensor<4x8x4x8xf32>
  %key_mm_e = tensor.empty() : tensor<32x32xf32>
  %key_mm_init = linalg.fill ins(%zero : f32) outs(%key_mm_e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %key_mm = linalg.matmul ins(%ln1, %wk : tensor<32x32xf32>, tensor<32x32xf32>)
                          outs(%key_mm_init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %key_e = tensor.empty() : tensor<32x32xf32>
  %key = linalg.generic {indexing_maps = [#id, #bias, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%key_mm, %bk : tensor<32x32xf32>, tensor<32xf32>)
      outs(%key_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %key_heads = tensor.expand_shape %key [[0, 1], [2, 3]] output_shape [4, 8, 4, 8] : tensor<32x32xf32> into tensor<4x8x4x8xf32>
  %value_mm_e = tensor.empty() : tensor<32x32xf32>
  %value_mm_init = linalg.fill ins(%zero : f32) outs(%value_mm_e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %value_mm = linalg.matmul ins(%ln1, %wv : tensor<32x32xf32>, tensor<32x32xf32>)
                            outs(%value_mm_init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %value_e = tensor.empty() : tensor<32x32xf32>
  %value = linalg.generic {indexing_maps = [#id, #bias, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%value_mm, %bv : tensor<32x32xf32>, tensor<32xf32>)
      outs(%value_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %value_heads = tensor.expand_shape %value [[0, 1], [2, 3]] output_shape [4, 8, 4, 8] : tensor<32x32xf32> into tensor<4x8x4x8xf32>

  // scores[b, h, i, j] = sum_d Q[b, i, h, d] * K[b, j, h, d]
  %scores_e = tensor.empty() : tensor<4x4x8x8xf32>
  %scores_init = linalg.fill ins(%zero : f32) outs(%scores_e : tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
  %scores = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%query_heads, %key_heads : tensor<4x8x4x8xf32>, tensor<4x8x4x8xf32>)
      outs(%scores_init : tensor<4x4x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %m = arith.mulf %in, %k : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x4x8x8xf32>

  // scale by 1/sqrt(8), causal mask: -inf where j > i
  %logits_e = tensor.empty() : tensor<4x4x8x8xf32>
  %logits = linalg.generic {indexing_maps = [#id4, #id4],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores : tensor<4x4x8x8xf32>)
      outs(%logits_e : tensor<4x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %scale = arith.constant 3.53553391e-01 : f32
    %minf = arith.constant 0xFF800000 : f32
    %v = arith.mulf %in, %scale : f32
    %masked = arith.cmpi ugt, %j, %i : index
    %r = arith.select %masked, %minf, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x4x8x8xf32>

  // P = softmax over j: max, exp(s - max), sum, divide
  %smax_e = tensor.empty() : tensor<4x4x8xf32>
  %smax_init = linalg.fill ins(%ninf : f32) outs(%smax_e : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %smax = linalg.generic {indexing_maps = [#id4, #last4],
                          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%logits : tensor<4x4x8x8xf32>)
      outs(%smax_init : tensor<4x4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4x4x8xf32>
  %sexp_e = tensor.empty() : tensor<4x4x8x8xf32>
  %sexp = linalg.generic {indexing_maps = [#id4, #last4, #id4],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%logits, %smax : tensor<4x4x8x8xf32>, tensor<4x4x8xf32>)
      outs(%sexp_e : tensor<4x4x8x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<4x4x8x8xf32>
  %ssum_e = tensor.empty() : tensor<4x4x8xf32>
  %ssum_init = linalg.fill ins(%zero : f32) outs(%ssum_e : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %ssum = linalg.generic {indexing_maps = [#id4, #last4],
                          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sexp : tensor<4x4x8x8xf32>)
      outs(%ssum_init : tensor<4x4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x4x8xf32>
  %probs_e = tensor.empty() : tensor<4x4x8x8xf32>
  %probs = linalg.generic {indexing_maps = [#id4, #last4, #id4],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sexp, %ssum : tensor<4x4x8x8xf32>, tensor<4x4x8xf32>)
      outs(%probs_e : tensor<4x4x8x8xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %r = arith.divf %in, %sm : f32
    linalg.yield %r : f32
  } -> tensor<4x4x8x8xf32>

  // context[b, i, h, d] = sum_j P[b, h, i, j] * V[b, j, h, d]
  %ctx_e = tensor.empty() : tensor<4x8x4x8xf32>
  %ctx_init = linalg.fill ins(%zero : f32) outs(%ctx_e : tensor<4x8x4x8xf32>) -> tensor<4x8x4x8xf32>
  %ctx = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_c],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%probs, %value_heads : tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>)
      outs(%ctx_init : tensor<4x8x4x8xf32>) {
  ^bb0(%in: f32, %v: f32, %acc: f32):
    %m = arith.mulf %in, %v : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x8x4x8xf32>
  %ctx_merged = tensor.collapse_shape %ctx [[0, 1], [2, 3]] : tensor<4x8x4x8xf32> into tensor<32x32xf32>

  // A = context·Wo + bo, then the residual: %x + A
  %attn_mm_e = tensor.empty() : tensor<32x32xf32>
  %attn_mm_init = linalg.fill ins(%zero : f32) outs(%attn_mm_e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %attn_mm = linalg.matmul ins(%ctx_merged, %wo : tensor<32x32xf32>, tensor<32x32xf32>)
                           outs(%attn_mm_init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %attn_e = tensor.empty() : tensor<32x32xf32>
  %attn = linalg.generic {indexing_maps = [#id, #bias, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%attn_mm, %bo : tensor<32x32xf32>, tensor<32xf32>)
      outs(%attn_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %h_e = tensor.empty() : tensor<32x32xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %attn : tensor<32x32xf32>, tensor<32x32xf32>)
      outs(%h_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>

  // LN2 = LayerNorm(%h) over the hidden dim:
  //   sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;
  //   rstd = rsqrt(var + eps); out = c·rstd·gamma + beta
  %ln2_sum_e = tensor.empty() : tensor<32xf32>
  %ln2_sum_init = linalg.fill ins(%zero : f32) outs(%ln2_sum_e : tensor<32xf32>) -> tensor<32xf32>
  %ln2_sum = linalg.generic {indexing_maps = [#id, #row],
                             iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<32x32xf32>)
      outs(%ln2_sum_init : tensor<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %ln2_mean_e = tensor.empty() : tensor<32xf32>
  %ln2_mean = linalg.generic {indexing_maps = [#vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%ln2_sum : tensor<32xf32>)
      outs(%ln2_mean_e : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %r = arith.divf %in, %hid : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %ln2_c_e = tensor.empty() : tensor<32x32xf32>
  %ln2_c = linalg.generic {indexing_maps = [#id, #row, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%h, %ln2_mean : tensor<32x32xf32>, tensor<32xf32>)
      outs(%ln2_c_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  } -> tensor<32x32xf32>
  %ln2_var_e = tensor.empty() : tensor<32xf32>
  %ln2_var_init = linalg.fill ins(%zero : f32) outs(%ln2_var_e : tensor<32xf32>) -> tensor<32xf32>
  %ln2_var = linalg.generic {indexing_maps = [#id, #row],
                             iterator_types = ["parallel", "reduction"]}
      ins(%ln2_c : tensor<32x32xf32>)
      outs(%ln2_var_init : tensor<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %ln2_rstd_e = tensor.empty() : tensor<32xf32>
  %ln2_rstd = linalg.generic {indexing_maps = [#vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%ln2_var : tensor<32xf32>)
      outs(%ln2_rstd_e : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %v = arith.divf %in, %hid : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %ln2_e = tensor.empty() : tensor<32x32xf32>
  %ln2 = linalg.generic {indexing_maps = [#id, #row, #bias, #bias, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%ln2_c, %ln2_rstd, %ln2_gamma, %ln2_beta : tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%ln2_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %r: f32, %gm: f32, %bt: f32, %out: f32):
    %n = arith.mulf %in, %r : f32
    %s = arith.mulf %n, %gm : f32
    %t = arith.addf %s, %bt : f32
    linalg.yield %t : f32
  } -> tensor<32x32xf32>

  // U = GeLU(LN2·W1 + b1), GeLU in tanh form
  %fc1_mm_e = tensor.empty() : tensor<32x128xf32>
  %fc1_mm_init = linalg.fill ins(%zero : f32) outs(%fc1_mm_e : tensor<32x128xf32>) -> tensor<32x128xf32>
  %fc1_mm = linalg.matmul ins(%ln2, %w1 : tensor<32x32xf32>, tensor<32x128xf32>)
                          outs(%fc1_mm_init : tensor<32x128xf32>) -> tensor<32x128xf32>
  %fc1_e = tensor.empty() : tensor<32x128xf32>
  %fc1 = linalg.generic {indexing_maps = [#id, #bias, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%fc1_mm, %b1 : tensor<32x128xf32>, tensor<128xf32>)
      outs(%fc1_e : tensor<32x128xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x128xf32>
  %gelu_e = tensor.empty() : tensor<32x128xf32>
  %gelu = linalg.generic {indexing_maps = [#id, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%fc1 : tensor<32x128xf32>)
      outs(%gelu_e : tensor<32x128xf32>) {
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
  } -> tensor<32x128xf32>

  // M = U·W2 + b2, then the residual: %h + M
  %fc2_mm_e = tensor.empty() : tensor<32x32xf32>
  %fc2_mm_init = linalg.fill ins(%zero : f32) outs(%fc2_mm_e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %fc2_mm = linalg.matmul ins(%gelu, %w2 : tensor<32x128xf32>, tensor<128x32xf32>)
                          outs(%fc2_mm_init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %fc2_e = tensor.empty() : tensor<32x32xf32>
  %fc2 = linalg.generic {indexing_maps = [#id, #bias, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%fc2_mm, %b2 : tensor<32x32xf32>, tensor<32xf32>)
      outs(%fc2_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %y_e = tensor.empty() : tensor<32x32xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h, %fc2 : tensor<32x32xf32>, tensor<32x32xf32>)
      outs(%y_e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}
