// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-expand-matmul

summa.grid @grid shape = [2, 2, 1]
func.func @abt(%a: tensor<4x16xf32>, %b: tensor<8x16xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'summa.matmul' op form abt has no SUMMA expansion yet (only ab)}}
  %0 = summa.matmul %a, %b, %c on @grid form = abt : tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

summa.grid @grid shape = [2, 2, 1]
func.func @atb(%a: tensor<4x8xf32>, %b: tensor<4x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'summa.matmul' op form atb has no SUMMA expansion yet (only ab)}}
  %0 = summa.matmul %a, %b, %c on @grid form = atb : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
