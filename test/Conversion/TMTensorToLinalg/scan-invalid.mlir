// RUN: summa-opt %s --convert-tm-tensor-to-linalg -verify-diagnostics

func.func @dynamic(%x: tensor<2x?xi64>, %o: tensor<2x?xi64>, %a: tensor<2xi64>) -> tensor<2x?xi64> {
  // expected-error @+1 {{'tm_tensor.scan' op scans dimension 1 of dynamic size; summa takes static shapes only}}
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x?xi64>) outs(%o, %a : tensor<2x?xi64>, tensor<2xi64>) {
  ^bb0(%prev: i64, %next: i64):
    %s = arith.addi %prev, %next : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x?xi64>, tensor<2xi64>
  return %r#0 : tensor<2x?xi64>
}
