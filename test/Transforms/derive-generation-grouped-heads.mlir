// RUN: summa-opt %S/../Integration/Inputs/generate/llama.mlir --summa-derive-generation=prompt=4 | FileCheck %s

// Hugging Face's Llama with grouped-query attention (4 query heads, 2 key
// and value heads of 8, 12 positions, batch 2), as torch-mlir exports it:
// repeat_kv broadcasts the key and value heads to the query heads, then
// SDPA transposes and scales the repeated keys. The derivation first runs
// summa-sink-repeats on the forward, so each layer's caches hold the 2 key
// heads (keys [B, Hkv, D, S], after the transpose and the scale, values
// [B, Hkv, S, D]) and each step repeats them for its product.

// CHECK-LABEL: func.func @hf_llama_logits_prefill(
// CHECK-SAME: -> ({{.*}}tensor<2x2x8x12xf32> {summa.name = "cache.0"}, tensor<2x2x12x8xf32> {summa.name = "cache.1"}, tensor<2x2x8x12xf32> {summa.name = "cache.2"}, tensor<2x2x12x8xf32> {summa.name = "cache.3"}
// CHECK-LABEL: func.func @hf_llama_logits_decode(
// CHECK-SAME: tensor<2x2x8x12xf32> {summa.name = "cache.0", summa.role = "state"}
// CHECK-SAME: tensor<2x2x12x8xf32> {summa.name = "cache.1", summa.role = "state"}
// CHECK-SAME: tensor<2x2x8x12xf32> {summa.name = "cache.2", summa.role = "state"}
// CHECK-SAME: tensor<2x2x12x8xf32> {summa.name = "cache.3", summa.role = "state"}
// The keys written at the position, then repeated to the 4 query heads.
// CHECK: %[[K:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, %{{.+}}] [2, 2, 8, 1] [1, 1, 1, 1] : tensor<2x2x8x1xf32> into tensor<2x2x8x12xf32>
// CHECK: linalg.generic {{.+}} ins(%[[K]] : tensor<2x2x8x12xf32>) outs(%{{.+}} : tensor<2x2x2x8x12xf32>)
// CHECK-NOT: tensor<2x4x8x12xf32> {summa.name
