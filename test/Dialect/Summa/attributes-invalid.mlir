// RUN: summa-opt %s -split-input-file -verify-diagnostics

// The dialect's discardable attributes are checked where they are parsed:
// a misspelt name is an error with its location, not silently ignored.

// expected-error @+1 {{unknown attribute 'summa.rol' on a function argument (#1) (summa's are summa.layout, summa.role, summa.init, summa.name, summa.updates, summa.padding_idx)}}
func.func @misspelt_role(%x: tensor<8x4xf32> {summa.role = "activation"},
                         %w: tensor<4x4xf32> {summa.rol = "weight"}) -> tensor<8x4xf32> {
  return %x : tensor<8x4xf32>
}

// -----

// expected-error @+1 {{'summa.layouts' is not an attribute of a function argument (#0)}}
func.func @layouts_on_argument(%w: tensor<4x4xf32> {summa.layouts = []}) -> tensor<4x4xf32> {
  return %w : tensor<4x4xf32>
}

// -----

// expected-error @+1 {{'summa.updates' (#0) must be an integer, not "w"}}
func.func @updates_not_integer(%w: tensor<4x4xf32>) -> (tensor<4x4xf32> {summa.updates = "w"}) {
  return %w : tensor<4x4xf32>
}

// -----

// expected-error @+1 {{'summa.role' (#0) must be a string, not 1 : i64}}
func.func @role_not_string(%w: tensor<4x4xf32> {summa.role = 1}) -> tensor<4x4xf32> {
  return %w : tensor<4x4xf32>
}

// -----

func.func @unknown_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown attribute 'summa.layuots' on an operation (summa's are summa.name, summa.layouts, summa.reduce_axes, summa.reduce_kinds, summa.gradcheck, summa.weight_stationary, summa.dispatch, summa.block_reduction)}}
  %y = arith.addf %x, %x {summa.layuots = []} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'summa.padding_idx' (#0) is -1, not a row index}}
func.func @padding_negative(%t: tensor<16x8xf32> {summa.padding_idx = -1}) -> tensor<16x8xf32> {
  return %t : tensor<16x8xf32>
}

// -----

// expected-error @+1 {{'summa.padding_idx' (#0) is on an argument that is not a table (a tensor of rank 1 or more)}}
func.func @padding_on_scalar(%t: tensor<f32> {summa.padding_idx = 0}) -> tensor<f32> {
  return %t : tensor<f32>
}

// -----

// expected-error @+1 {{'summa.padding_idx' (#0) must be an integer, not "0"}}
func.func @padding_not_integer(%t: tensor<16x8xf32> {summa.padding_idx = "0"}) -> tensor<16x8xf32> {
  return %t : tensor<16x8xf32>
}

// -----

// A role or an init kind is one of its enum's spellings (SummaAttrs.td).

// expected-error @+1 {{argument 0 has unknown summa.role "input" (expected activation, weight, bias, replicated or state)}}
func.func @unknown_role(%x: tensor<8x8xf32> {summa.role = "input"}) {
  return
}

// -----

// expected-error @+1 {{argument 1 has unknown summa.init "ones" (expected nonnegative or zeros)}}
func.func @unknown_init(%x: tensor<4xf32>, %m: tensor<4xf32> {summa.init = "ones"}) {
  return
}

// -----

// The kinds of a reduction's partial results are summa.all_reduce's
// (ReductionKindAttr), not names.
func.func @reduce_kinds_by_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'summa.reduce_kinds' must be an array of reduction kinds, not ["sum"]}}
  %y = arith.addf %x, %x {summa.reduce_kinds = ["sum"]} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @reduce_kinds_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'summa.reduce_kinds' must be an array of reduction kinds, not [7 : i32]}}
  %y = arith.addf %x, %x {summa.reduce_kinds = [7 : i32]} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// summa.gradcheck (summa-differentiate's mark on a derived step) names the
// loss function, the gradients' function and the parameters.
// expected-error @+1 {{'summa.gradcheck' must be {loss = @function, gradients = @function, params = array<i64: ...>}, not {loss = @f}}}
func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> attributes {summa.gradcheck = {loss = @f}} {
  return %x : tensor<4xf32>
}
