// RUN: summa-opt %s -split-input-file -verify-diagnostics

func.func @dimension(%x: tensor<2x8xi64>, %o: tensor<2x8xi64>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'tm_tensor.scan' op dimension 2 is not a dimension of the rank-2 input}}
  %r:2 = tm_tensor.scan dimension(2) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi64>, tensor<2xi64>) {
  ^bb0(%p: i64, %n: i64):
    %s = arith.addi %p, %n : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x8xi64>, tensor<2xi64>
  return
}

// -----

func.func @accumulator(%x: tensor<2x8xi64>, %o: tensor<2x8xi64>, %a: tensor<8xi64>) {
  // expected-error @+1 {{'tm_tensor.scan' op accumulator type 'tensor<8xi64>' is not the input's without dimension 1, 'tensor<2xi64>'}}
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi64>, tensor<8xi64>) {
  ^bb0(%p: i64, %n: i64):
    %s = arith.addi %p, %n : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x8xi64>, tensor<8xi64>
  return
}

// -----

func.func @output(%x: tensor<2x8xi64>, %o: tensor<2x8xi32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'tm_tensor.scan' op output type 'tensor<2x8xi32>' differs from the input's 'tensor<2x8xi64>'}}
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi32>, tensor<2xi64>) {
  ^bb0(%p: i64, %n: i64):
    %s = arith.addi %p, %n : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x8xi32>, tensor<2xi64>
  return
}

// -----

func.func @operands(%x: tensor<2x8xi64>, %o: tensor<2x8xi64>) {
  // expected-error @+1 {{'tm_tensor.scan' op takes one input and two outputs (the output and the accumulator), not 1 and 1}}
  %r = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o : tensor<2x8xi64>) {
  ^bb0(%p: i64, %n: i64):
    %s = arith.addi %p, %n : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x8xi64>
  return
}

// -----

func.func @region(%x: tensor<2x8xi64>, %o: tensor<2x8xi64>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'tm_tensor.scan' op region must take two 'i64' arguments}}
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi64>, tensor<2xi64>) {
  ^bb0(%p: i64, %n: i32):
    tm_tensor.yield %p : i64
  } -> tensor<2x8xi64>, tensor<2xi64>
  return
}

// -----

func.func @yield(%x: tensor<2x8xi64>, %o: tensor<2x8xi64>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'tm_tensor.scan' op region must yield one 'i64'}}
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi64>, tensor<2xi64>) {
  ^bb0(%p: i64, %n: i64):
    %t = arith.trunci %p : i64 to i32
    tm_tensor.yield %t : i32
  } -> tensor<2x8xi64>, tensor<2xi64>
  return
}

// -----

// An op of torch-mlir's dialect that summa does not take is an error at its
// location, not a crash.
func.func @sort(%x: tensor<8xf32>) {
  // expected-error @+1 {{custom op 'tm_tensor.sort' is unknown}}
  %r = tm_tensor.sort dimension(0) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf olt, %a, %b : f32
    tm_tensor.yield %c : i1
  } -> tensor<8xf32>
  return
}
