// RUN: summa-opt %s -split-input-file -verify-diagnostics --convert-summa-to-runtime

summa.grid @grid shape = [2, 2, 1]
func.func @tensor_form(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'summa.all_reduce' op on tensors must be bufferized before convert-summa-to-runtime}}
  %0 = summa.all_reduce %a on @grid axes = [col] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

summa.grid @grid shape = [2, 2, 1]
func.func @unexpanded(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'summa.matmul' op must be expanded (summa-expand-matmul) before lowering}}
  %0 = summa.matmul %a, %b, %c on @grid form = ab : tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

summa.grid @grid shape = [2, 2, 1]
func.func @unpartitioned(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'summa.relayout' op must be partitioned (summa-partition) before lowering}}
  %r = summa.relayout %x to <@grid, [[depth, row], []]> : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

summa.grid @grid shape = [2, 2, 1]
func.func @integer(%a: memref<4x8xi16>) {
  // expected-error @+1 {{'summa.all_reduce' op element type 'i16' has no runtime support (f32, f64, f16, bf16, i64, i32)}}
  summa.all_reduce %a on @grid axes = [col] kind = sum : memref<4x8xi16>
  return
}

// -----

summa.grid @grid shape = [2, 2, 1]
func.func @strided(%a: memref<4x8xf32, strided<[16, 1]>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'summa.broadcast' op needs a static, contiguous row-major buffer, got 'memref<4x8xf32, strided<[16, 1]>>'}}
  summa.broadcast %a on @grid axes = [col] root = %c0 : memref<4x8xf32, strided<[16, 1]>>
  return
}

// -----

func.func @gemm_integer(%a: memref<4x8xi32>, %b: memref<8x16xi32>, %c: memref<4x16xi32>) {
  // expected-error @+1 {{'linalg.matmul' op operand element types must be one runtime type (f32, f64, f16, bf16), got 'i32'}}
  linalg.matmul ins(%a, %b : memref<4x8xi32>, memref<8x16xi32>) outs(%c : memref<4x16xi32>)
  return
}

// -----

func.func @gemm_column_major(%a: memref<4x8xf32, strided<[1, 4]>>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'linalg.matmul' op needs unit stride in the last dimension, got 'memref<4x8xf32, strided<[1, 4]>>'}}
  linalg.matmul ins(%a, %b : memref<4x8xf32, strided<[1, 4]>>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @gemm_transposed_result(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{'linalg.matmul' op with these indexing maps is not A·B, A·Bᵀ or Aᵀ·B; it has no runtime GEMM}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>]
      ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

summa.grid @grid shape = [2, 2, 2]
func.func @async_int(%a: memref<4x8xi8>, %t: index) {
  // expected-error @+1 {{'summa.async_broadcast' op element type 'i8' has no runtime support (f32, f64, f16, bf16, i64, i32)}}
  %0 = summa.async_broadcast %a on @grid axes = [col] root = %t : memref<4x8xi8>
  summa.wait %0
  return
}

// -----

summa.grid @grid shape = [2, 2, 2]
func.func @async_strided(%a: memref<4x8xf32, strided<[16, 1]>>, %t: index) {
  // expected-error @+1 {{'summa.async_reduce' op needs a static, contiguous row-major buffer, got 'memref<4x8xf32, strided<[16, 1]>>'}}
  %0 = summa.async_reduce %a on @grid axes = [row] root = %t kind = sum : memref<4x8xf32, strided<[16, 1]>>
  summa.wait %0
  return
}
