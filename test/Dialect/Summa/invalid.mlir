// RUN: summa-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'summa.grid' op shape must be [q, q, d], got 2 dimensions}}
summa.grid @g shape = [2, 2]

// -----

// expected-error @+1 {{'summa.grid' op grid sizes must be positive, got [0, 0, 1]}}
summa.grid @g shape = [0, 0, 1]

// -----

// expected-error @+1 {{'summa.grid' op grid sizes must be positive, got [2, 2, -1]}}
summa.grid @g shape = [2, 2, -1]

// -----

// expected-error @+1 {{'summa.grid' op the SUMMA grid must be square (q x q), got 2 x 3}}
summa.grid @g shape = [2, 3, 1]

// -----

summa.grid @g shape = [2, 2, 1]
// expected-error @+1 {{unknown grid axis 'diagonal' (expected 'row', 'col' or 'depth')}}
func.func private @f(tensor<4x4xf32> {summa.layout = #summa.layout<@g, [[diagonal], []]>})

// -----

summa.grid @g shape = [2, 2, 1]
// expected-error @+1 {{grid axis 'row' splits more than one dimension}}
func.func private @f(tensor<4x4xf32> {summa.layout = #summa.layout<@g, [[row], [row]]>})

// -----

summa.grid @g shape = [2, 2, 2]
// expected-error @+1 {{the axes of one dimension must be listed in the order depth, row, col}}
func.func private @f(tensor<4x4xf32> {summa.layout = #summa.layout<@g, [[row, depth], []]>})

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%a: tensor<4x8x2xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op operands must be matrices (rank 2)}}
  %0 = summa.matmul %a, %b, %c on @g form = ab : tensor<4x8x2xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op contraction sizes differ: 8 (lhs) vs 4 (rhs) for form ab}}
  %0 = summa.matmul %a, %b, %c on @g form = ab : tensor<4x8xf32>, tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.matmul' op accumulator must be 4x16 for form ab, got 4x8}}
  %0 = summa.matmul %a, %b, %c on @g form = ab : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op accumulator must be 8x16 for form atb, got 4x16}}
  %0 = summa.matmul %a, %c, %c on @g form = atb : tensor<4x8xf32>, tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op failed to verify that all of {lhs, rhs, acc, result} have same element type}}
  %0 = summa.matmul %a, %b, %c on @g form = ab : tensor<4x8xf32>, tensor<8x16xf16>, tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 2]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op result type 'tensor<2x16xf32>' must equal the accumulator's 'tensor<4x16xf32>'}}
  %0 = summa.matmul %a, %b, %c on @g form = ab : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<2x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 2]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op depth_scatter needs form atb (only its product is summed over depth)}}
  %0 = summa.matmul %a, %b, %c on @g form = ab {depth_scatter = 0 : i64} : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<2x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 2]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x16xf32>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op depth_scatter 2 is not a dimension of the rank-2 result}}
  %0 = summa.matmul %a, %b, %c on @g form = atb {depth_scatter = 2 : i64} : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 2]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x16xf32>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op result dimension 1 (8) must equal the accumulator's (16)}}
  %0 = summa.matmul %a, %b, %c on @g form = atb {depth_scatter = 0 : i64} : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 4]
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x16xf32>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op depth_scatter: result dimension 0 (4) must be the accumulator's (8) divided by the grid's depth 4}}
  %0 = summa.matmul %a, %b, %c on @g form = atb {depth_scatter = 0 : i64} : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'summa.matmul' op '@nogrid' does not name a summa.grid}}
  %0 = summa.matmul %a, %b, %c on @nogrid form = ab : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>, %t: index) {
  // expected-error @+1 {{'summa.broadcast' op needs at least one grid axis}}
  %0 = summa.broadcast %x on @g axes = [] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.all_reduce' op grid axis 'col' is listed twice}}
  %0 = summa.all_reduce %x on @g axes = [col, col] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{unknown grid axis 'layer' (expected 'row', 'col' or 'depth')}}
  %0 = summa.all_reduce %x on @g axes = [layer] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: memref<4x8xf32>) {
  // expected-error @+1 {{'summa.all_reduce' op works in place on a memref and must not have a result}}
  %0 = summa.all_reduce %x on @g axes = [col] kind = sum : memref<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>, %t: index) {
  // expected-error @+1 {{'summa.reduce' op on a tensor must have a result}}
  summa.reduce %x on @g axes = [col] root = %t kind = sum : tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>, %t: index) {
  // expected-error @+1 {{'summa.broadcast' op result type 'tensor<4x4xf32>' must equal the input type 'tensor<4x8xf32>'}}
  %0 = summa.broadcast %x on @g axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'summa.broadcast' op root 2 is outside the group of 2 ranks}}
  %0 = summa.broadcast %x on @g axes = [col] root = %c2 : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'summa.reduce' op root 4 is outside the group of 4 ranks}}
  %0 = summa.reduce %x on @g axes = [row, col] root = %c4 kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.all_reduce' op '@missing' does not name a summa.grid}}
  %0 = summa.all_reduce %x on @missing axes = [col] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.all_gather' op dimension 2 is out of range for rank 2}}
  %0 = summa.all_gather %x on @g axes = [col] dim = 2 : tensor<4x8xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: memref<4x8xf32>) {
  // expected-error @+1 {{'summa.all_gather' op on a memref needs an `into` buffer}}
  summa.all_gather %x on @g axes = [col] dim = 1 : memref<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: memref<4x8xf32>, %y: memref<4x16xf32>) {
  // expected-error @+1 {{'summa.all_gather' op on a memref must not have a result}}
  %0 = summa.all_gather %x into %y on @g axes = [col] dim = 1 : memref<4x8xf32> into memref<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>, %y: memref<4x16xf32>) {
  // expected-error @+1 {{'summa.all_gather' op on a tensor must not have an `into` buffer}}
  %0 = summa.all_gather %x into %y on @g axes = [col] dim = 1 : tensor<4x8xf32> into memref<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.all_gather' op on a tensor must have a result}}
  summa.all_gather %x on @g axes = [col] dim = 1 : tensor<4x8xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.all_gather' op result 'tensor<4x16xf16>' must have the rank and element type of 'tensor<4x8xf32>'}}
  %0 = summa.all_gather %x on @g axes = [col] dim = 1 : tensor<4x8xf32> -> tensor<4x16xf16>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.all_gather' op result and input may differ only in dimension 1}}
  %0 = summa.all_gather %x on @g axes = [col] dim = 1 : tensor<4x8xf32> -> tensor<8x16xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 1]
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'summa.all_gather' op dimension 1 must grow from 8 to 16 over a group of 2, got 24}}
  %0 = summa.all_gather %x on @g axes = [col] dim = 1 : tensor<4x8xf32> -> tensor<4x24xf32>
  return
}

// -----

summa.grid @g shape = [2, 2, 2]
func.func @f(%x: tensor<8x8xf32>) {
  // expected-error @+1 {{'summa.reduce_scatter' op dimension 0 must grow from 4 to 16 over a group of 4, got 8}}
  %0 = summa.reduce_scatter %x on @g axes = [depth, row] dim = 0 kind = sum : tensor<8x8xf32> -> tensor<4x8xf32>
  return
}

// -----

summa.grid @grid shape = [2, 2, 2]
func.func @async_root(%a: memref<4x8xf32>) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'summa.async_broadcast' op root 2 is outside the group of 2 ranks}}
  %0 = summa.async_broadcast %a on @grid axes = [col] root = %c2 : memref<4x8xf32>
  summa.wait %0
  return
}

// -----

summa.grid @grid shape = [2, 2, 2]
func.func @async_axes(%a: memref<4x8xf32>, %t: index) {
  // expected-error @+1 {{'summa.async_reduce' op grid axis 'row' is listed twice}}
  %0 = summa.async_reduce %a on @grid axes = [row, row] root = %t kind = sum : memref<4x8xf32>
  summa.wait %0
  return
}

// -----

func.func @async_no_grid(%a: memref<4x8xf32>, %t: index) {
  // expected-error @+1 {{'summa.async_broadcast' op '@nogrid' does not name a summa.grid}}
  %0 = summa.async_broadcast %a on @nogrid axes = [col] root = %t : memref<4x8xf32>
  summa.wait %0
  return
}

// -----

func.func @async_tensor(%a: tensor<4x8xf32>, %t: index) {
  // expected-error @+1 {{'summa.async_broadcast' op operand #0 must be memref of any type values, but got 'tensor<4x8xf32>'}}
  %0 = "summa.async_broadcast"(%a, %t) {grid = @grid, axes = array<i32: 1>} : (tensor<4x8xf32>, index) -> !summa.token
  return
}

// -----

summa.grid @grid shape = [2, 2, 1]
func.func @relayout_rank(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'summa.relayout' op layout #summa.layout<@grid, [[row]]> has rank 1 but the tensor 'tensor<4x4xf32>' has rank 2}}
  %r = summa.relayout %x to <@grid, [[row]]> : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @relayout_no_grid(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'summa.relayout' op}}
  %r = summa.relayout %x to <@nowhere, [[row], []]> : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
