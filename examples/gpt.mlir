// A 2-layer pre-LN GPT-2 stack (blocks chained), then a final LayerNorm.
// Written as torch-mlir emits it (linalg on tensors). Generated, do not edit:
//   python3 examples/generate.py gpt --layers 2 --batch 32 --seq 8 --hidden 32 --heads 4 --ffn 128 --dtype f32 --softmax decomposed --gelu tanh -o examples/gpt.mlir
//
// Tokens T = batch·seq = 32·8 = 256 (token t = b·seq + s), hidden 32, heads 4 of dim 8, ffn 128, 2 layers, f32.
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

func.func @gpt(%x: tensor<256x32xf32> {summa.role = "activation"},
               %l0_ln1_gamma: tensor<32xf32> {summa.role = "bias"},
               %l0_ln1_beta: tensor<32xf32> {summa.role = "bias"},
               %l0_wq: tensor<32x32xf32> {summa.role = "weight"},
               %l0_bq: tensor<32xf32> {summa.role = "bias"},
               %l0_wk: tensor<32x32xf32> {summa.role = "weight"},
               %l0_bk: tensor<32xf32> {summa.role = "bias"},
               %l0_wv: tensor<32x32xf32> {summa.role = "weight"},
               %l0_bv: tensor<32xf32> {summa.role = "bias"},
               %l0_wo: tensor<32x32xf32> {summa.role = "weight"},
               %l0_bo: tensor<32xf32> {summa.role = "bias"},
               %l0_ln2_gamma: tensor<32xf32> {summa.role = "bias"},
               %l0_ln2_beta: tensor<32xf32> {summa.role = "bias"},
               %l0_w1: tensor<32x128xf32> {summa.role = "weight"},
               %l0_b1: tensor<128xf32> {summa.role = "bias"},
               %l0_w2: tensor<128x32xf32> {summa.role = "weight"},
               %l0_b2: tensor<32xf32> {summa.role = "bias"},
               %l1_ln1_gamma: tensor<32xf32> {summa.role = "bias"},
               %l1_ln1_beta: tensor<32xf32> {summa.role = "bias"},
               %l1_wq: tensor<32x32xf32> {summa.role = "weight"},
               %l1_bq: tensor<32xf32> {summa.role = "bias"},
               %l1_wk: tensor<32x32xf32> {summa.role = "weight"},
               %l1_bk: tensor<32xf32> {summa.role = "bias"},
               %l1_wv: tensor<32x32xf32> {summa.role = "weight"},
               %l1_bv: tensor<32xf32> {summa.role = "bias"},
               %l1_wo: tensor<32x32xf32> {summa.role = "weight"},
               %l1_bo: tensor<32xf32> {summa.role = "bias"},
               %l1_ln2_gamma: tensor<32xf32> {summa.role = "bias"},
               %l1_ln2_beta: tensor<32xf32> {summa.role = "bias"},
               %l1_w1: tensor<32x128xf32> {summa.role = "weight"},
               %l1_b1: tensor<128xf32> {summa.role = "bias"},
               %l1_w2: tensor<128x32xf32> {summa.role = "weight"},
               %l1_b2: tensor<32xf32> {summa.role = "bias"},
               %lnf_gamma: tensor<32xf32> {summa.role = "bias"},
               %lnf_beta: tensor<32xf32> {summa.role = "bias"})
    -> tensor<256x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // ===== layer 0 =====

  // LN1 = LayerNorm(%x) over the hidden dim:
  //   sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;
  //   rstd = rsqrt(var + eps); out = c·rstd·gamma + beta
  %l0_ln1_sum_e = tensor.empty() : tensor<256xf32>
  %l0_ln1_sum_init = linalg.fill ins(%zero : f32) outs(%l0_ln1_sum_e : tensor<256xf32>) -> tensor<256xf32>
  %l0_ln1_sum = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x32xf32>)
      outs(%l0_ln1_sum_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l0_ln1_mean_e = tensor.empty() : tensor<256xf32>
  %l0_ln1_mean = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l0_ln1_sum : tensor<256xf32>)
      outs(%l0_ln1_mean_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %r = arith.divf %in, %hid : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l0_ln1_c_e = tensor.empty() : tensor<256x32xf32>
  %l0_ln1_c = linalg.generic {indexing_maps = [#id, #row, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%x, %l0_ln1_mean : tensor<256x32xf32>, tensor<256xf32>)
      outs(%l0_ln1_c_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  } -> tensor<256x32xf32>
  %l0_ln1_var_e = tensor.empty() : tensor<256xf32>
  %l0_ln1_var_init = linalg.fill ins(%zero : f32) outs(%l0_ln1_var_e : tensor<256xf32>) -> tensor<256xf32>
  %l0_ln1_var = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%l0_ln1_c : tensor<256x32xf32>)
      outs(%l0_ln1_var_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l0_ln1_rstd_e = tensor.empty() : tensor<256xf32>
  %l0_ln1_rstd = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l0_ln1_var : tensor<256xf32>)
      outs(%l0_ln1_rstd_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %v = arith.divf %in, %hid : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l0_ln1_e = tensor.empty() : tensor<256x32xf32>
  %l0_ln1 = linalg.generic {indexing_maps = [#id, #row, #bias, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l0_ln1_c, %l0_ln1_rstd, %l0_ln1_gamma, %l0_ln1_beta : tensor<256x32xf32>, tensor<256xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%l0_ln1_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %r: f32, %gm: f32, %bt: f32, %out: f32):
    %n = arith.mulf %in, %r : f32
    %s = arith.mulf %n, %gm : f32
    %t = arith.addf %s, %bt : f32
    linalg.yield %t : f32
  } -> tensor<256x32xf32>

  // Q, K, V = LN1·Wq + bq, LN1·Wk + bk, LN1·Wv + bv
  %l0_query_mm_e = tensor.empty() : tensor<256x32xf32>
  %l0_query_mm_init = linalg.fill ins(%zero : f32) outs(%l0_query_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_query_mm = linalg.matmul ins(%l0_ln1, %l0_wq : tensor<256x32xf32>, tensor<32x32xf32>)
                               outs(%l0_query_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_query_e = tensor.empty() : tensor<256x32xf32>
  %l0_query = linalg.generic {indexing_maps = [#id, #bias, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%l0_query_mm, %l0_bq : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l0_query_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l0_query_heads = tensor.expand_shape %l0_query [[0, 1], [2, 3]] output_shape [32, 8, 4, 8] : tensor<256x32xf32> into tensor<32x8x4x8xf32>
  %l0_key_mm_e = tensor.empty() : tensor<256x32xf32>
  %l0_key_mm_init = linalg.fill ins(%zero : f32) outs(%l0_key_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_key_mm = linalg.matmul ins(%l0_ln1, %l0_wk : tensor<256x32xf32>, tensor<32x32xf32>)
                             outs(%l0_key_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_key_e = tensor.empty() : tensor<256x32xf32>
  %l0_key = linalg.generic {indexing_maps = [#id, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l0_key_mm, %l0_bk : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l0_key_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l0_key_heads = tensor.expand_shape %l0_key [[0, 1], [2, 3]] output_shape [32, 8, 4, 8] : tensor<256x32xf32> into tensor<32x8x4x8xf32>
  %l0_value_mm_e = tensor.empty() : tensor<256x32xf32>
  %l0_value_mm_init = linalg.fill ins(%zero : f32) outs(%l0_value_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_value_mm = linalg.matmul ins(%l0_ln1, %l0_wv : tensor<256x32xf32>, tensor<32x32xf32>)
                               outs(%l0_value_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_value_e = tensor.empty() : tensor<256x32xf32>
  %l0_value = linalg.generic {indexing_maps = [#id, #bias, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%l0_value_mm, %l0_bv : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l0_value_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l0_value_heads = tensor.expand_shape %l0_value [[0, 1], [2, 3]] output_shape [32, 8, 4, 8] : tensor<256x32xf32> into tensor<32x8x4x8xf32>

  // scores[b, h, i, j] = sum_d Q[b, i, h, d] * K[b, j, h, d]
  %l0_scores_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l0_scores_init = linalg.fill ins(%zero : f32) outs(%l0_scores_e : tensor<32x4x8x8xf32>) -> tensor<32x4x8x8xf32>
  %l0_scores = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%l0_query_heads, %l0_key_heads : tensor<32x8x4x8xf32>, tensor<32x8x4x8xf32>)
      outs(%l0_scores_init : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %m = arith.mulf %in, %k : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x4x8x8xf32>

  // scale by 1/sqrt(8), causal mask: -inf where j > i
  %l0_logits_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l0_logits = linalg.generic {indexing_maps = [#id4, #id4],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l0_scores : tensor<32x4x8x8xf32>)
      outs(%l0_logits_e : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %scale = arith.constant 3.53553391e-01 : f32
    %minf = arith.constant 0xFF800000 : f32
    %v = arith.mulf %in, %scale : f32
    %masked = arith.cmpi ugt, %j, %i : index
    %r = arith.select %masked, %minf, %v : f32
    linalg.yield %r : f32
  } -> tensor<32x4x8x8xf32>

  // P = softmax over j: max, exp(s - max), sum, divide
  %l0_smax_e = tensor.empty() : tensor<32x4x8xf32>
  %l0_smax_init = linalg.fill ins(%ninf : f32) outs(%l0_smax_e : tensor<32x4x8xf32>) -> tensor<32x4x8xf32>
  %l0_smax = linalg.generic {indexing_maps = [#id4, #last4],
                             iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%l0_logits : tensor<32x4x8x8xf32>)
      outs(%l0_smax_init : tensor<32x4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<32x4x8xf32>
  %l0_sexp_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l0_sexp = linalg.generic {indexing_maps = [#id4, #last4, #id4],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l0_logits, %l0_smax : tensor<32x4x8x8xf32>, tensor<32x4x8xf32>)
      outs(%l0_sexp_e : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<32x4x8x8xf32>
  %l0_ssum_e = tensor.empty() : tensor<32x4x8xf32>
  %l0_ssum_init = linalg.fill ins(%zero : f32) outs(%l0_ssum_e : tensor<32x4x8xf32>) -> tensor<32x4x8xf32>
  %l0_ssum = linalg.generic {indexing_maps = [#id4, #last4],
                             iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%l0_sexp : tensor<32x4x8x8xf32>)
      outs(%l0_ssum_init : tensor<32x4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x4x8xf32>
  %l0_probs_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l0_probs = linalg.generic {indexing_maps = [#id4, #last4, #id4],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l0_sexp, %l0_ssum : tensor<32x4x8x8xf32>, tensor<32x4x8xf32>)
      outs(%l0_probs_e : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %r = arith.divf %in, %sm : f32
    linalg.yield %r : f32
  } -> tensor<32x4x8x8xf32>

  // context[b, i, h, d] = sum_j P[b, h, i, j] * V[b, j, h, d]
  %l0_ctx_e = tensor.empty() : tensor<32x8x4x8xf32>
  %l0_ctx_init = linalg.fill ins(%zero : f32) outs(%l0_ctx_e : tensor<32x8x4x8xf32>) -> tensor<32x8x4x8xf32>
  %l0_ctx = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_c],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%l0_probs, %l0_value_heads : tensor<32x4x8x8xf32>, tensor<32x8x4x8xf32>)
      outs(%l0_ctx_init : tensor<32x8x4x8xf32>) {
  ^bb0(%in: f32, %v: f32, %acc: f32):
    %m = arith.mulf %in, %v : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x8x4x8xf32>
  %l0_ctx_merged = tensor.collapse_shape %l0_ctx [[0, 1], [2, 3]] : tensor<32x8x4x8xf32> into tensor<256x32xf32>

  // A = context·Wo + bo, then the residual: %x + A
  %l0_attn_mm_e = tensor.empty() : tensor<256x32xf32>
  %l0_attn_mm_init = linalg.fill ins(%zero : f32) outs(%l0_attn_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_attn_mm = linalg.matmul ins(%l0_ctx_merged, %l0_wo : tensor<256x32xf32>, tensor<32x32xf32>)
                              outs(%l0_attn_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_attn_e = tensor.empty() : tensor<256x32xf32>
  %l0_attn = linalg.generic {indexing_maps = [#id, #bias, #id],
                             iterator_types = ["parallel", "parallel"]}
      ins(%l0_attn_mm, %l0_bo : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l0_attn_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l0_h_e = tensor.empty() : tensor<256x32xf32>
  %l0_h = linalg.generic {indexing_maps = [#id, #id, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%x, %l0_attn : tensor<256x32xf32>, tensor<256x32xf32>)
      outs(%l0_h_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>

  // LN2 = LayerNorm(%l0_h) over the hidden dim:
  //   sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;
  //   rstd = rsqrt(var + eps); out = c·rstd·gamma + beta
  %l0_ln2_sum_e = tensor.empty() : tensor<256xf32>
  %l0_ln2_sum_init = linalg.fill ins(%zero : f32) outs(%l0_ln2_sum_e : tensor<256xf32>) -> tensor<256xf32>
  %l0_ln2_sum = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%l0_h : tensor<256x32xf32>)
      outs(%l0_ln2_sum_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l0_ln2_mean_e = tensor.empty() : tensor<256xf32>
  %l0_ln2_mean = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l0_ln2_sum : tensor<256xf32>)
      outs(%l0_ln2_mean_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %r = arith.divf %in, %hid : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l0_ln2_c_e = tensor.empty() : tensor<256x32xf32>
  %l0_ln2_c = linalg.generic {indexing_maps = [#id, #row, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%l0_h, %l0_ln2_mean : tensor<256x32xf32>, tensor<256xf32>)
      outs(%l0_ln2_c_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  } -> tensor<256x32xf32>
  %l0_ln2_var_e = tensor.empty() : tensor<256xf32>
  %l0_ln2_var_init = linalg.fill ins(%zero : f32) outs(%l0_ln2_var_e : tensor<256xf32>) -> tensor<256xf32>
  %l0_ln2_var = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%l0_ln2_c : tensor<256x32xf32>)
      outs(%l0_ln2_var_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l0_ln2_rstd_e = tensor.empty() : tensor<256xf32>
  %l0_ln2_rstd = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l0_ln2_var : tensor<256xf32>)
      outs(%l0_ln2_rstd_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %v = arith.divf %in, %hid : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l0_ln2_e = tensor.empty() : tensor<256x32xf32>
  %l0_ln2 = linalg.generic {indexing_maps = [#id, #row, #bias, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l0_ln2_c, %l0_ln2_rstd, %l0_ln2_gamma, %l0_ln2_beta : tensor<256x32xf32>, tensor<256xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%l0_ln2_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %r: f32, %gm: f32, %bt: f32, %out: f32):
    %n = arith.mulf %in, %r : f32
    %s = arith.mulf %n, %gm : f32
    %t = arith.addf %s, %bt : f32
    linalg.yield %t : f32
  } -> tensor<256x32xf32>

  // U = GeLU(LN2·W1 + b1), GeLU in tanh form
  %l0_fc1_mm_e = tensor.empty() : tensor<256x128xf32>
  %l0_fc1_mm_init = linalg.fill ins(%zero : f32) outs(%l0_fc1_mm_e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %l0_fc1_mm = linalg.matmul ins(%l0_ln2, %l0_w1 : tensor<256x32xf32>, tensor<32x128xf32>)
                             outs(%l0_fc1_mm_init : tensor<256x128xf32>) -> tensor<256x128xf32>
  %l0_fc1_e = tensor.empty() : tensor<256x128xf32>
  %l0_fc1 = linalg.generic {indexing_maps = [#id, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l0_fc1_mm, %l0_b1 : tensor<256x128xf32>, tensor<128xf32>)
      outs(%l0_fc1_e : tensor<256x128xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x128xf32>
  %l0_gelu_e = tensor.empty() : tensor<256x128xf32>
  %l0_gelu = linalg.generic {indexing_maps = [#id, #id],
                             iterator_types = ["parallel", "parallel"]}
      ins(%l0_fc1 : tensor<256x128xf32>)
      outs(%l0_gelu_e : tensor<256x128xf32>) {
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
  } -> tensor<256x128xf32>

  // M = U·W2 + b2, then the residual: %l0_h + M
  %l0_fc2_mm_e = tensor.empty() : tensor<256x32xf32>
  %l0_fc2_mm_init = linalg.fill ins(%zero : f32) outs(%l0_fc2_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_fc2_mm = linalg.matmul ins(%l0_gelu, %l0_w2 : tensor<256x128xf32>, tensor<128x32xf32>)
                             outs(%l0_fc2_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l0_fc2_e = tensor.empty() : tensor<256x32xf32>
  %l0_fc2 = linalg.generic {indexing_maps = [#id, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l0_fc2_mm, %l0_b2 : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l0_fc2_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l0_y_e = tensor.empty() : tensor<256x32xf32>
  %l0_y = linalg.generic {indexing_maps = [#id, #id, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%l0_h, %l0_fc2 : tensor<256x32xf32>, tensor<256x32xf32>)
      outs(%l0_y_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>

  // ===== layer 1 =====

  // LN1 = LayerNorm(%l0_y) over the hidden dim:
  //   sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;
  //   rstd = rsqrt(var + eps); out = c·rstd·gamma + beta
  %l1_ln1_sum_e = tensor.empty() : tensor<256xf32>
  %l1_ln1_sum_init = linalg.fill ins(%zero : f32) outs(%l1_ln1_sum_e : tensor<256xf32>) -> tensor<256xf32>
  %l1_ln1_sum = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%l0_y : tensor<256x32xf32>)
      outs(%l1_ln1_sum_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l1_ln1_mean_e = tensor.empty() : tensor<256xf32>
  %l1_ln1_mean = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l1_ln1_sum : tensor<256xf32>)
      outs(%l1_ln1_mean_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %r = arith.divf %in, %hid : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l1_ln1_c_e = tensor.empty() : tensor<256x32xf32>
  %l1_ln1_c = linalg.generic {indexing_maps = [#id, #row, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%l0_y, %l1_ln1_mean : tensor<256x32xf32>, tensor<256xf32>)
      outs(%l1_ln1_c_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  } -> tensor<256x32xf32>
  %l1_ln1_var_e = tensor.empty() : tensor<256xf32>
  %l1_ln1_var_init = linalg.fill ins(%zero : f32) outs(%l1_ln1_var_e : tensor<256xf32>) -> tensor<256xf32>
  %l1_ln1_var = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%l1_ln1_c : tensor<256x32xf32>)
      outs(%l1_ln1_var_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l1_ln1_rstd_e = tensor.empty() : tensor<256xf32>
  %l1_ln1_rstd = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l1_ln1_var : tensor<256xf32>)
      outs(%l1_ln1_rstd_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %v = arith.divf %in, %hid : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l1_ln1_e = tensor.empty() : tensor<256x32xf32>
  %l1_ln1 = linalg.generic {indexing_maps = [#id, #row, #bias, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l1_ln1_c, %l1_ln1_rstd, %l1_ln1_gamma, %l1_ln1_beta : tensor<256x32xf32>, tensor<256xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%l1_ln1_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %r: f32, %gm: f32, %bt: f32, %out: f32):
    %n = arith.mulf %in, %r : f32
    %s = arith.mulf %n, %gm : f32
    %t = arith.addf %s, %bt : f32
    linalg.yield %t : f32
  } -> tensor<256x32xf32>

  // Q, K, V = LN1·Wq + bq, LN1·Wk + bk, LN1·Wv + bv
  %l1_query_mm_e = tensor.empty() : tensor<256x32xf32>
  %l1_query_mm_init = linalg.fill ins(%zero : f32) outs(%l1_query_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_query_mm = linalg.matmul ins(%l1_ln1, %l1_wq : tensor<256x32xf32>, tensor<32x32xf32>)
                               outs(%l1_query_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_query_e = tensor.empty() : tensor<256x32xf32>
  %l1_query = linalg.generic {indexing_maps = [#id, #bias, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%l1_query_mm, %l1_bq : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l1_query_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l1_query_heads = tensor.expand_shape %l1_query [[0, 1], [2, 3]] output_shape [32, 8, 4, 8] : tensor<256x32xf32> into tensor<32x8x4x8xf32>
  %l1_key_mm_e = tensor.empty() : tensor<256x32xf32>
  %l1_key_mm_init = linalg.fill ins(%zero : f32) outs(%l1_key_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_key_mm = linalg.matmul ins(%l1_ln1, %l1_wk : tensor<256x32xf32>, tensor<32x32xf32>)
                             outs(%l1_key_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_key_e = tensor.empty() : tensor<256x32xf32>
  %l1_key = linalg.generic {indexing_maps = [#id, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l1_key_mm, %l1_bk : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l1_key_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l1_key_heads = tensor.expand_shape %l1_key [[0, 1], [2, 3]] output_shape [32, 8, 4, 8] : tensor<256x32xf32> into tensor<32x8x4x8xf32>
  %l1_value_mm_e = tensor.empty() : tensor<256x32xf32>
  %l1_value_mm_init = linalg.fill ins(%zero : f32) outs(%l1_value_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_value_mm = linalg.matmul ins(%l1_ln1, %l1_wv : tensor<256x32xf32>, tensor<32x32xf32>)
                               outs(%l1_value_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_value_e = tensor.empty() : tensor<256x32xf32>
  %l1_value = linalg.generic {indexing_maps = [#id, #bias, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%l1_value_mm, %l1_bv : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l1_value_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l1_value_heads = tensor.expand_shape %l1_value [[0, 1], [2, 3]] output_shape [32, 8, 4, 8] : tensor<256x32xf32> into tensor<32x8x4x8xf32>

  // scores[b, h, i, j] = sum_d Q[b, i, h, d] * K[b, j, h, d]
  %l1_scores_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l1_scores_init = linalg.fill ins(%zero : f32) outs(%l1_scores_e : tensor<32x4x8x8xf32>) -> tensor<32x4x8x8xf32>
  %l1_scores = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%l1_query_heads, %l1_key_heads : tensor<32x8x4x8xf32>, tensor<32x8x4x8xf32>)
      outs(%l1_scores_init : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %m = arith.mulf %in, %k : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x4x8x8xf32>

  // scale by 1/sqrt(8), causal mask: -inf where j > i
  %l1_logits_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l1_logits = linalg.generic {indexing_maps = [#id4, #id4],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l1_scores : tensor<32x4x8x8xf32>)
      outs(%l1_logits_e : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %scale = arith.constant 3.53553391e-01 : f32
    %minf = arith.constant 0xFF800000 : f32
    %v = arith.mulf %in, %scale : f32
    %masked = arith.cmpi ugt, %j, %i : index
    %r = arith.select %masked, %minf, %v : f32
    linalg.yield %r : f32
  } -> tensor<32x4x8x8xf32>

  // P = softmax over j: max, exp(s - max), sum, divide
  %l1_smax_e = tensor.empty() : tensor<32x4x8xf32>
  %l1_smax_init = linalg.fill ins(%ninf : f32) outs(%l1_smax_e : tensor<32x4x8xf32>) -> tensor<32x4x8xf32>
  %l1_smax = linalg.generic {indexing_maps = [#id4, #last4],
                             iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%l1_logits : tensor<32x4x8x8xf32>)
      outs(%l1_smax_init : tensor<32x4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<32x4x8xf32>
  %l1_sexp_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l1_sexp = linalg.generic {indexing_maps = [#id4, #last4, #id4],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l1_logits, %l1_smax : tensor<32x4x8x8xf32>, tensor<32x4x8xf32>)
      outs(%l1_sexp_e : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<32x4x8x8xf32>
  %l1_ssum_e = tensor.empty() : tensor<32x4x8xf32>
  %l1_ssum_init = linalg.fill ins(%zero : f32) outs(%l1_ssum_e : tensor<32x4x8xf32>) -> tensor<32x4x8xf32>
  %l1_ssum = linalg.generic {indexing_maps = [#id4, #last4],
                             iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%l1_sexp : tensor<32x4x8x8xf32>)
      outs(%l1_ssum_init : tensor<32x4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x4x8xf32>
  %l1_probs_e = tensor.empty() : tensor<32x4x8x8xf32>
  %l1_probs = linalg.generic {indexing_maps = [#id4, #last4, #id4],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l1_sexp, %l1_ssum : tensor<32x4x8x8xf32>, tensor<32x4x8xf32>)
      outs(%l1_probs_e : tensor<32x4x8x8xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %r = arith.divf %in, %sm : f32
    linalg.yield %r : f32
  } -> tensor<32x4x8x8xf32>

  // context[b, i, h, d] = sum_j P[b, h, i, j] * V[b, j, h, d]
  %l1_ctx_e = tensor.empty() : tensor<32x8x4x8xf32>
  %l1_ctx_init = linalg.fill ins(%zero : f32) outs(%l1_ctx_e : tensor<32x8x4x8xf32>) -> tensor<32x8x4x8xf32>
  %l1_ctx = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_c],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%l1_probs, %l1_value_heads : tensor<32x4x8x8xf32>, tensor<32x8x4x8xf32>)
      outs(%l1_ctx_init : tensor<32x8x4x8xf32>) {
  ^bb0(%in: f32, %v: f32, %acc: f32):
    %m = arith.mulf %in, %v : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x8x4x8xf32>
  %l1_ctx_merged = tensor.collapse_shape %l1_ctx [[0, 1], [2, 3]] : tensor<32x8x4x8xf32> into tensor<256x32xf32>

  // A = context·Wo + bo, then the residual: %l0_y + A
  %l1_attn_mm_e = tensor.empty() : tensor<256x32xf32>
  %l1_attn_mm_init = linalg.fill ins(%zero : f32) outs(%l1_attn_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_attn_mm = linalg.matmul ins(%l1_ctx_merged, %l1_wo : tensor<256x32xf32>, tensor<32x32xf32>)
                              outs(%l1_attn_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_attn_e = tensor.empty() : tensor<256x32xf32>
  %l1_attn = linalg.generic {indexing_maps = [#id, #bias, #id],
                             iterator_types = ["parallel", "parallel"]}
      ins(%l1_attn_mm, %l1_bo : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l1_attn_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l1_h_e = tensor.empty() : tensor<256x32xf32>
  %l1_h = linalg.generic {indexing_maps = [#id, #id, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%l0_y, %l1_attn : tensor<256x32xf32>, tensor<256x32xf32>)
      outs(%l1_h_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>

  // LN2 = LayerNorm(%l1_h) over the hidden dim:
  //   sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;
  //   rstd = rsqrt(var + eps); out = c·rstd·gamma + beta
  %l1_ln2_sum_e = tensor.empty() : tensor<256xf32>
  %l1_ln2_sum_init = linalg.fill ins(%zero : f32) outs(%l1_ln2_sum_e : tensor<256xf32>) -> tensor<256xf32>
  %l1_ln2_sum = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%l1_h : tensor<256x32xf32>)
      outs(%l1_ln2_sum_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l1_ln2_mean_e = tensor.empty() : tensor<256xf32>
  %l1_ln2_mean = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l1_ln2_sum : tensor<256xf32>)
      outs(%l1_ln2_mean_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %r = arith.divf %in, %hid : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l1_ln2_c_e = tensor.empty() : tensor<256x32xf32>
  %l1_ln2_c = linalg.generic {indexing_maps = [#id, #row, #id],
                              iterator_types = ["parallel", "parallel"]}
      ins(%l1_h, %l1_ln2_mean : tensor<256x32xf32>, tensor<256xf32>)
      outs(%l1_ln2_c_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  } -> tensor<256x32xf32>
  %l1_ln2_var_e = tensor.empty() : tensor<256xf32>
  %l1_ln2_var_init = linalg.fill ins(%zero : f32) outs(%l1_ln2_var_e : tensor<256xf32>) -> tensor<256xf32>
  %l1_ln2_var = linalg.generic {indexing_maps = [#id, #row],
                                iterator_types = ["parallel", "reduction"]}
      ins(%l1_ln2_c : tensor<256x32xf32>)
      outs(%l1_ln2_var_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %l1_ln2_rstd_e = tensor.empty() : tensor<256xf32>
  %l1_ln2_rstd = linalg.generic {indexing_maps = [#vec, #vec],
                                 iterator_types = ["parallel"]}
      ins(%l1_ln2_var : tensor<256xf32>)
      outs(%l1_ln2_rstd_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %v = arith.divf %in, %hid : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %l1_ln2_e = tensor.empty() : tensor<256x32xf32>
  %l1_ln2 = linalg.generic {indexing_maps = [#id, #row, #bias, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l1_ln2_c, %l1_ln2_rstd, %l1_ln2_gamma, %l1_ln2_beta : tensor<256x32xf32>, tensor<256xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%l1_ln2_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %r: f32, %gm: f32, %bt: f32, %out: f32):
    %n = arith.mulf %in, %r : f32
    %s = arith.mulf %n, %gm : f32
    %t = arith.addf %s, %bt : f32
    linalg.yield %t : f32
  } -> tensor<256x32xf32>

  // U = GeLU(LN2·W1 + b1), GeLU in tanh form
  %l1_fc1_mm_e = tensor.empty() : tensor<256x128xf32>
  %l1_fc1_mm_init = linalg.fill ins(%zero : f32) outs(%l1_fc1_mm_e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %l1_fc1_mm = linalg.matmul ins(%l1_ln2, %l1_w1 : tensor<256x32xf32>, tensor<32x128xf32>)
                             outs(%l1_fc1_mm_init : tensor<256x128xf32>) -> tensor<256x128xf32>
  %l1_fc1_e = tensor.empty() : tensor<256x128xf32>
  %l1_fc1 = linalg.generic {indexing_maps = [#id, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l1_fc1_mm, %l1_b1 : tensor<256x128xf32>, tensor<128xf32>)
      outs(%l1_fc1_e : tensor<256x128xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x128xf32>
  %l1_gelu_e = tensor.empty() : tensor<256x128xf32>
  %l1_gelu = linalg.generic {indexing_maps = [#id, #id],
                             iterator_types = ["parallel", "parallel"]}
      ins(%l1_fc1 : tensor<256x128xf32>)
      outs(%l1_gelu_e : tensor<256x128xf32>) {
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
  } -> tensor<256x128xf32>

  // M = U·W2 + b2, then the residual: %l1_h + M
  %l1_fc2_mm_e = tensor.empty() : tensor<256x32xf32>
  %l1_fc2_mm_init = linalg.fill ins(%zero : f32) outs(%l1_fc2_mm_e : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_fc2_mm = linalg.matmul ins(%l1_gelu, %l1_w2 : tensor<256x128xf32>, tensor<128x32xf32>)
                             outs(%l1_fc2_mm_init : tensor<256x32xf32>) -> tensor<256x32xf32>
  %l1_fc2_e = tensor.empty() : tensor<256x32xf32>
  %l1_fc2 = linalg.generic {indexing_maps = [#id, #bias, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%l1_fc2_mm, %l1_b2 : tensor<256x32xf32>, tensor<32xf32>)
      outs(%l1_fc2_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>
  %l1_y_e = tensor.empty() : tensor<256x32xf32>
  %l1_y = linalg.generic {indexing_maps = [#id, #id, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%l1_h, %l1_fc2 : tensor<256x32xf32>, tensor<256x32xf32>)
      outs(%l1_y_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %s = arith.addf %in, %res : f32
    linalg.yield %s : f32
  } -> tensor<256x32xf32>

  // ===== final LayerNorm =====

  // LNF = LayerNorm(%l1_y) over the hidden dim:
  //   sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;
  //   rstd = rsqrt(var + eps); out = c·rstd·gamma + beta
  %lnf_sum_e = tensor.empty() : tensor<256xf32>
  %lnf_sum_init = linalg.fill ins(%zero : f32) outs(%lnf_sum_e : tensor<256xf32>) -> tensor<256xf32>
  %lnf_sum = linalg.generic {indexing_maps = [#id, #row],
                             iterator_types = ["parallel", "reduction"]}
      ins(%l1_y : tensor<256x32xf32>)
      outs(%lnf_sum_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %lnf_mean_e = tensor.empty() : tensor<256xf32>
  %lnf_mean = linalg.generic {indexing_maps = [#vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%lnf_sum : tensor<256xf32>)
      outs(%lnf_mean_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %r = arith.divf %in, %hid : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %lnf_c_e = tensor.empty() : tensor<256x32xf32>
  %lnf_c = linalg.generic {indexing_maps = [#id, #row, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%l1_y, %lnf_mean : tensor<256x32xf32>, tensor<256xf32>)
      outs(%lnf_c_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    linalg.yield %d : f32
  } -> tensor<256x32xf32>
  %lnf_var_e = tensor.empty() : tensor<256xf32>
  %lnf_var_init = linalg.fill ins(%zero : f32) outs(%lnf_var_e : tensor<256xf32>) -> tensor<256xf32>
  %lnf_var = linalg.generic {indexing_maps = [#id, #row],
                             iterator_types = ["parallel", "reduction"]}
      ins(%lnf_c : tensor<256x32xf32>)
      outs(%lnf_var_init : tensor<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %lnf_rstd_e = tensor.empty() : tensor<256xf32>
  %lnf_rstd = linalg.generic {indexing_maps = [#vec, #vec],
                              iterator_types = ["parallel"]}
      ins(%lnf_var : tensor<256xf32>)
      outs(%lnf_rstd_e : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %hid = arith.constant 3.200000e+01 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %v = arith.divf %in, %hid : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %lnf_e = tensor.empty() : tensor<256x32xf32>
  %lnf = linalg.generic {indexing_maps = [#id, #row, #bias, #bias, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%lnf_c, %lnf_rstd, %lnf_gamma, %lnf_beta : tensor<256x32xf32>, tensor<256xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%lnf_e : tensor<256x32xf32>) {
  ^bb0(%in: f32, %r: f32, %gm: f32, %bt: f32, %out: f32):
    %n = arith.mulf %in, %r : f32
    %s = arith.mulf %n, %gm : f32
    %t = arith.addf %s, %bt : f32
    linalg.yield %t : f32
  } -> tensor<256x32xf32>
  return %lnf : tensor<256x32xf32>
}
