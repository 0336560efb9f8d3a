// RUN: summa-opt %S/../Integration/Inputs/generate/gpt2.mlir --summa-derive-generation=prompt=4 | FileCheck %s

// Hugging Face's GPT-2 as torch-mlir exports it computes the logits as one
// linalg.matmul over the batch's B*S rows ([B, S, E] collapsed to
// [B*S, E], times the tied embedding transposed, expanded to [B, S, V]).
// The prefill of 4 tokens needs the last position's logits only: its
// product reads the final LayerNorm's output at that position (sliced
// before the collapse) and multiplies B = 2 rows, not 8; the product of
// every position is not computed.

// CHECK-LABEL: func.func @hf_gpt2_logits_prefill(
// CHECK-NOT: tensor<8x67xf32>
// CHECK: %[[LAST:.+]] = tensor.extract_slice %{{.+}}[0, 3, 0] [2, 1, 32] [1, 1, 1] : tensor<2x4x32xf32> to tensor<2x1x32xf32>
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %[[LAST]] {{\[}}[0, 1], [2]] : tensor<2x1x32xf32> into tensor<2x32xf32>
// CHECK: %[[L:.+]] = linalg.matmul ins(%[[ROWS]], %{{.+}} : tensor<2x32xf32>, tensor<32x67xf32>) outs(%{{.+}} : tensor<2x67xf32>)
// CHECK: %[[LOGITS:.+]] = tensor.expand_shape %[[L]] {{\[}}[0, 1], [2]] output_shape [2, 1, 67] : tensor<2x67xf32> into tensor<2x1x67xf32>
// CHECK-NOT: tensor<8x67xf32>
// CHECK: return %[[LOGITS]],
// CHECK-LABEL: func.func @hf_gpt2_logits_decode(
