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

// An op of torch-mlir's dialect that summa does not read is an error at
// its location that names it, not a parse failure.
func.func @scatter(%u: tensor<3x4xf32>, %i: tensor<3x1xi32>, %x: tensor<8x4xf32>) {
  // expected-error @+1 {{custom op 'tm_tensor.scatter' is not read by summa yet (of torch-mlir's tm_tensor ops, summa reads scan and sort); the README's 'What is not supported yet' lists what an export may need instead}}
  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi32>) outs(%x : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tm_tensor.yield %s : f32
  } -> tensor<8x4xf32>
  return
}

// -----

func.func @sort_region(%v: tensor<3x4xf32>, %i: tensor<3x4xi64>) {
  // expected-error @+1 {{'tm_tensor.sort' op region must take two arguments of each output's element type, 4 in all}}
  %r:2 = tm_tensor.sort dimension(1) outs(%v, %i : tensor<3x4xf32>, tensor<3x4xi64>) {
  ^bb0(%a: f32, %b: f32):
    %ge = arith.cmpf oge, %a, %b : f32
    tm_tensor.yield %ge : i1
  } -> tensor<3x4xf32>, tensor<3x4xi64>
  return
}

// -----

func.func @sort_dimension(%v: tensor<3x4xf32>) {
  // expected-error @+1 {{'tm_tensor.sort' op dimension 2 is not a dimension of the rank-2 outputs}}
  %r = tm_tensor.sort dimension(2) outs(%v : tensor<3x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %ge = arith.cmpf oge, %a, %b : f32
    tm_tensor.yield %ge : i1
  } -> tensor<3x4xf32>
  return
}

// -----

func.func @sort_shapes(%v: tensor<3x4xf32>, %i: tensor<3x5xi64>) {
  // expected-error @+1 {{'tm_tensor.sort' op outputs must have one shape; 'tensor<3x5xi64>' differs from 'tensor<3x4xf32>'}}
  %r:2 = tm_tensor.sort dimension(1) outs(%v, %i : tensor<3x4xf32>, tensor<3x5xi64>) {
  ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
    %ge = arith.cmpf oge, %a, %b : f32
    tm_tensor.yield %ge : i1
  } -> tensor<3x4xf32>, tensor<3x5xi64>
  return
}

// -----

func.func @sort_yield(%v: tensor<3x4xf32>) {
  // expected-error @+1 {{'tm_tensor.sort' op region must yield one i1 (whether its first elements come before its second)}}
  %r = tm_tensor.sort dimension(1) outs(%v : tensor<3x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    tm_tensor.yield %a : f32
  } -> tensor<3x4xf32>
  return
}
