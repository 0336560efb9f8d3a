// examples/export/convert_dtype.py turns an f32 export into the same model
// in bf16 (the device bundle's bf16 training steps): every f32 type, hex
// literal and dense_resource blob. Llama's export keeps RMSNorm's constants
// in a resource blob; left in f32 bytes under a bf16 type, the step fails
// to compile ("raw data size does not match element type size").
// RUN: %python %summa_src/examples/export/convert_dtype.py mlir --dtype bf16 %summa_src/examples/fixtures/hf_llama_lm.mlir %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-NOT: f32
// CHECK: dense_resource<torch_tensor_4_torch.float32> : tensor<4xbf16>
// 1.0, 0.1, 0.01, 0.001 in f32: 3F800000 3DCCCCCD 3C23D70A 3A83126F; in
// bf16, rounded to nearest even and little-endian after the alignment word:
// CHECK: torch_tensor_4_torch.float32: "0x04000000803FCD3D243C833A"
