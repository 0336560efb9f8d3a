// A transformer MLP block, Y = GeLU(X·W1 + b1)·W2 + b2 + X (no LayerNorm).
// Written as torch-mlir emits it (linalg on tensors). Generated, do not edit:
//   python3 examples/generate.py mlp --batch 4 --seq 12 --hidden 24 --ffn 96 --dtype f32 --gelu erf -o examples/mlp_erf.mlir
//
// Tokens T = batch·seq = 4·12 = 48 (token t = b·seq + s), hidden 24, ffn 96, f32.
// GeLU in erf form.
// Arguments carry summa.role = "activation" | "weight" | "bias"; weights are [in, out].

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>

func.func @mlp(%x: tensor<48x24xf32> {summa.role = "activation"},
               %w1: tensor<24x96xf32> {summa.role = "weight"},
               %b1: tensor<96xf32> {summa.role = "bias"},
               %w2: tensor<96x24xf32> {summa.role = "weight"},
               %b2: tensor<24xf32> {summa.role = "bias"})
    -> tensor<48x24xf32> {
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

  // G = GeLU(H), erf form
  %g_e = tensor.empty() : tensor<48x96xf32>
  %g = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<48x96xf32>)
      outs(%g_e : tensor<48x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %rsqrt2 = arith.constant 7.07106781e-01 : f32
    %xs = arith.mulf %in, %rsqrt2 : f32
    %t = math.erf %xs : f32
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
  return %y : tensor<48x24xf32>
}
