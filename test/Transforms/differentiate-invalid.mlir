// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-differentiate

func.func @sine(%w: tensor<4xf32> {summa.role = "bias"}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{summa-differentiate: no derivative for 'math.sin' in the body of this op}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.sin %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A pad's derivative (Slice.cpp) needs a padding value no parameter reaches.
func.func @pad_value(%w: tensor<4xf32> {summa.role = "bias"}, %v: tensor<f32> {summa.role = "bias"}) -> tensor<8xf32> {
  %c = tensor.extract %v[] : tensor<f32>
  // expected-error @+1 {{summa-differentiate: 'tensor.pad' reads a value that depends on the parameters inside its body other than as a gather (the element a tensor.extract reads, yielded as it is); no derivative for it}}
  %y = tensor.pad %w low[2] high[2] {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<4xf32> to tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @pad_by_position(%w: tensor<4xf32> {summa.role = "bias"}) -> tensor<8xf32> {
  // expected-error @+1 {{summa-differentiate: tensor.pad: only a padding value that is the same at every position has a derivative}}
  %y = tensor.pad %w low[2] high[2] {
  ^bb0(%i: index):
    %n = arith.index_cast %i : index to i64
    %f = arith.sitofp %n : i64 to f32
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @pad_dynamic(%w: tensor<4xf32> {summa.role = "bias"}, %n: index) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{summa-differentiate: tensor.pad: only static padding has a derivative}}
  %y = tensor.pad %w low[%n] high[2] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

func.func @gather(%w: tensor<4xf32> {summa.role = "bias"}, %idx: tensor<2x1xindex>) -> tensor<2xf32> {
  // expected-error @+1 {{summa-differentiate: no derivative for 'tensor.gather'}}
  %y = tensor.gather %w[%idx] gather_dims([0]) unique : (tensor<4xf32>, tensor<2x1xindex>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

func.func @transposed(%x: tensor<4x4xf32> {summa.role = "activation"}, %w: tensor<4x4xf32> {summa.role = "weight"}) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{summa-differentiate: a linalg.matmul is differentiated in the forms A·B, A·Bᵀ and Aᵀ·B (this one has other indexing maps)}}
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %mm : tensor<4x4xf32>
}

// -----

// expected-error @+1 {{summa-differentiate: no argument has summa.role "weight" or "bias"}}
func.func @no_params(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{summa-differentiate: the loss (result 0) must be a float tensor, got 'tensor<4xi32>'}}
func.func @int_loss(%w: tensor<4xf32> {summa.role = "bias"}, %i: tensor<4xi32>) -> tensor<4xi32> {
  return %i : tensor<4xi32>
}

// -----

// expected-error @+1 {{summa-differentiate: the function returns no loss}}
func.func @no_loss(%w: tensor<4xf32> {summa.role = "bias"}) {
  return
}

// -----

// A table read inside a body and used there (scaled), not yielded as read:
// no adjoint for it (a plain gather has one). An error naming the table,
// not a gradient that silently leaves that path out.
func.func @read_and_scaled(%ids: tensor<4xi64>, %table: tensor<16x8xf32> {summa.role = "weight"}) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{summa-differentiate: 'linalg.generic' reads a value that depends on the parameters inside its body other than as a gather (the element a tensor.extract reads, yielded as it is); no derivative for it (argument 1)}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<16x8xf32>
    %two = arith.addf %v, %v : f32
    linalg.yield %two : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A padding index past the table's rows.
// expected-error @+1 {{summa-differentiate: 'summa.padding_idx' (#1) is 16, not a row of its table 'tensor<16x8xf32>'}}
func.func @padding_past_table(%ids: tensor<4xi64>, %table: tensor<16x8xf32> {summa.role = "weight", summa.padding_idx = 16}) -> tensor<f32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x8xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A reduction whose body multiplies its accumulator (a product over a
// dimension): each term's derivative needs the running product, which the
// adjoint generic does not have. Refused, not derived as if it were a sum.
func.func @product(%w: tensor<4x3xf32> {summa.role = "weight"}) -> tensor<4xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{summa-differentiate: a reduction is differentiated when its body adds each term to its accumulator (yield f(...) + acc) or takes their max or min; this one combines them otherwise}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%w : tensor<4x3xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
