// RUN: summa-opt %s -split-input-file --convert-summa-to-runtime | FileCheck %s

// Each collective becomes one call of the runtime C ABI: (aligned pointer as
// index, element offset, count, dtype, axes mask, [root], [kind]).
// dtype: f32 = 0, f64 = 1; axes mask: row = 1, col = 2, depth = 4;
// kind: sum = 0, max = 1.
summa.grid @grid shape = [2, 2, 2]

// CHECK-NOT: summa.grid
// CHECK-DAG: func.func private @summaRtBroadcast(index, i64, i64, i32, i32, i64)
// CHECK-DAG: func.func private @summaRtReduce(index, i64, i64, i32, i32, i64, i32)
// CHECK-DAG: func.func private @summaRtAllReduce(index, i64, i64, i32, i32, i32)
// CHECK-DAG: func.func private @summaRtAllGather(index, i64, index, i64, i64, i64, i32, i32)
// CHECK-DAG: func.func private @summaRtReduceScatter(index, i64, index, i64, i64, i64, i32, i32, i32)
// CHECK-LABEL: func.func @collectives
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[G:.*]]: memref<4x16xf32>, %[[D:.*]]: memref<4x8xf64>, %[[T:.*]]: index)
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK-DAG: %[[N:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[COL:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[OFF64:.*]] = arith.index_cast %[[OFF]] : index to i64
// CHECK-DAG: %[[ROOT:.*]] = arith.index_cast %[[T]] : index to i64
// CHECK: call @summaRtBroadcast(%[[PTR]], %[[OFF64]], %[[N]], %[[F32]], %[[COL]], %[[ROOT]])
// CHECK: %[[ROW:.*]] = arith.constant 1 : i32
// CHECK: %[[MAX:.*]] = arith.constant 1 : i32
// CHECK: call @summaRtReduce({{.*}}, %[[ROW]], %{{.*}}, %[[MAX]])
// CHECK: %[[DEPTH:.*]] = arith.constant 4 : i32
// CHECK: call @summaRtAllReduce({{.*}}, %[[DEPTH]], %{{.*}})
// CHECK: %[[F64:.*]] = arith.constant 1 : i32
// CHECK: %[[ROWCOL:.*]] = arith.constant 3 : i32
// CHECK: call @summaRtAllReduce({{.*}}, %[[F64]], %[[ROWCOL]], %{{.*}})
// all_gather along dim 1 of 4x8 -> 4x16: outer 4, inner 8.
// CHECK: %[[OUTER:.*]] = arith.constant 4 : i64
// CHECK: %[[INNER:.*]] = arith.constant 8 : i64
// CHECK: call @summaRtAllGather(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[OUTER]], %[[INNER]], %{{.*}}, %{{.*}})
// CHECK: call @summaRtReduceScatter(
// CHECK-NOT: summa.
func.func @collectives(%a: memref<4x8xf32>, %g: memref<4x16xf32>, %d: memref<4x8xf64>, %t: index) {
  summa.broadcast %a on @grid axes = [col] root = %t : memref<4x8xf32>
  summa.reduce %a on @grid axes = [row] root = %t kind = max : memref<4x8xf32>
  summa.all_reduce %a on @grid axes = [depth] kind = sum : memref<4x8xf32>
  summa.all_reduce %d on @grid axes = [row, col] kind = sum : memref<4x8xf64>
  summa.all_gather %a into %g on @grid axes = [col] dim = 1 : memref<4x8xf32> into memref<4x16xf32>
  summa.reduce_scatter %g into %a on @grid axes = [col] dim = 1 kind = sum : memref<4x16xf32> into memref<4x8xf32>
  return
}

// -----

// Integer tensors (token ids) move through the same collectives, with the
// runtime's integer type codes: i32 = 5, i64 = 4.
// CHECK-LABEL: func.func @integer_collectives
// CHECK: %[[I32:.*]] = arith.constant 5 : i32
// CHECK: call @summaRtAllGather(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[I32]], %{{.*}})
// CHECK: %[[I64:.*]] = arith.constant 4 : i32
// CHECK: call @summaRtBroadcast(%{{.*}}, %{{.*}}, %{{.*}}, %[[I64]], %{{.*}}, %{{.*}})
summa.grid @grid shape = [2, 2, 1]
func.func @integer_collectives(%a: memref<4x8xi32>, %g: memref<4x16xi32>, %l: memref<4x8xi64>, %t: index) {
  summa.all_gather %a into %g on @grid axes = [col] dim = 1 : memref<4x8xi32> into memref<4x16xi32>
  summa.broadcast %l on @grid axes = [row] root = %t : memref<4x8xi64>
  return
}

// -----

// A local GEMM on memrefs: C += A·B through the runtime's BLAS.
// CHECK: func.func private @summaRtMatmul(i32, index, i64, i64, index, i64, i64, index, i64, i64, i64, i64, i64, i32, i32, i32)
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK-DAG: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %{{.*}}, %[[OA:.*]], %[[SA:.*]]:2, %[[STA:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK-DAG: %{{.*}}, %[[OB:.*]], %[[SB:.*]]:2, %[[STB:.*]]:2 = memref.extract_strided_metadata %[[B]]
// CHECK-DAG: %{{.*}}, %[[OC:.*]], %[[SC:.*]]:2, %[[STC:.*]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK: call @summaRtMatmul(
// CHECK-NOT: linalg.matmul
func.func @gemm(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// Layout annotations are dropped with the grid.
// CHECK-LABEL: func.func @annotated
// CHECK-NOT: summa.layout
summa.grid @grid shape = [1, 1, 1]
func.func @annotated(%a: memref<4x8xf32> {summa.layout = #summa.layout<@grid, [[depth, row], [col]]>}) {
  return
}

// -----

// The backward forms pass transposition flags instead of transposing:
// C[m,n] += A·Bᵀ (transB = 1, n = rows of B) and Aᵀ·B (transA = 1,
// m = columns of A).
// CHECK-LABEL: func.func @gemm_forms
// (transA, transB, accumulate) are the last three arguments.
// CHECK: call @summaRtMatmul({{.*}}, {{%c0_i32[_0-9]*}}, {{%c1_i32[_0-9]*}}, {{%c1_i32[_0-9]*}})
// CHECK: call @summaRtMatmul({{.*}}, {{%c1_i32[_0-9]*}}, {{%c0_i32[_0-9]*}}, {{%c1_i32[_0-9]*}})
func.func @gemm_forms(%a: memref<4x8xf32>, %b: memref<16x8xf32>, %c: memref<4x16xf32>,
                      %x: memref<8x4xf32>, %y: memref<8x16xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>) outs(%c : memref<4x16xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %y : memref<8x4xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// A zero fill of C that nothing touches before the GEMM goes: the GEMM
// overwrites C (accumulate = 0). Other ops in between are fine; a fill of
// another value, a read of C (or of a view of its buffer) or a call in
// between keep the fill and accumulate = 1, and a GEMM inside a loop
// accumulates into the fill before the loop.
// CHECK-LABEL: func.func @zero_fill
// CHECK-NOT: linalg.fill
// CHECK: linalg.copy
// CHECK-NOT: linalg.fill
// CHECK: call @summaRtMatmul({{.*}}, {{%c0_i32[_0-9]*}}, {{%c0_i32[_0-9]*}}, {{%c0_i32[_0-9]*}})
// CHECK: linalg.fill ins(%[[ONE:.*]] : f32)
// CHECK: call @summaRtMatmul({{.*}}, {{%c0_i32[_0-9]*}}, {{%c0_i32[_0-9]*}}, {{%c1_i32[_0-9]*}})
// CHECK: linalg.fill
// CHECK: memref.subview
// CHECK: linalg.copy
// CHECK: call @summaRtMatmul({{.*}}, {{%c0_i32[_0-9]*}}, {{%c0_i32[_0-9]*}}, {{%c1_i32[_0-9]*}})
// CHECK: linalg.fill
// CHECK: call @opaque
// CHECK: call @summaRtMatmul({{.*}}, {{%c0_i32[_0-9]*}}, {{%c0_i32[_0-9]*}}, {{%c1_i32[_0-9]*}})
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: call @summaRtMatmul({{.*}}, {{%c0_i32[_0-9]*}}, {{%c0_i32[_0-9]*}}, {{%c1_i32[_0-9]*}})
func.func private @opaque(memref<2x16xf32>)
func.func @zero_fill(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>,
                     %o: memref<4x8xf32>, %d: memref<2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16xf32>)
  linalg.copy ins(%a : memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  linalg.matmul ins(%o, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<4x16xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16xf32>)
  %rows = memref.subview %c[0, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1]>>
  linalg.copy ins(%rows : memref<2x16xf32, strided<[16, 1]>>) outs(%d : memref<2x16xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16xf32>)
  func.call @opaque(%d) : (memref<2x16xf32>) -> ()
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16xf32>)
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  }
  return
}

// -----

// Asynchronous collectives call the start functions; the token is the
// runtime's request handle (i64), also where a loop carries it.
summa.grid @grid shape = [2, 2, 2]

// CHECK-DAG: func.func private @summaRtBroadcastStart(index, i64, i64, i32, i32, i64) -> i64
// CHECK-DAG: func.func private @summaRtReduceStart(index, i64, i64, i32, i32, i64, i32) -> i64
// CHECK-DAG: func.func private @summaRtWait(i64)
// CHECK-LABEL: func.func @async
// CHECK: %[[B:.*]] = call @summaRtBroadcastStart({{.*}}) : (index, i64, i64, i32, i32, i64) -> i64
// CHECK: %[[R:.*]] = call @summaRtReduceStart({{.*}}) : (index, i64, i64, i32, i32, i64, i32) -> i64
// CHECK: %[[L:.*]] = scf.for {{.*}} iter_args(%[[W:.*]] = %[[B]]) -> (i64) {
// CHECK: call @summaRtWait(%[[W]]) : (i64) -> ()
// CHECK: %[[N:.*]] = func.call @summaRtBroadcastStart(
// CHECK: scf.yield %[[N]] : i64
// CHECK: call @summaRtWait(%[[R]])
// CHECK: call @summaRtWait(%[[L]])
// CHECK-NOT: summa.
// CHECK-NOT: unrealized_conversion_cast
func.func @async(%a: memref<4x8xf32>, %p: memref<8x6xf32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = summa.async_broadcast %a on @grid axes = [col] root = %t : memref<4x8xf32>
  %1 = summa.async_reduce %p on @grid axes = [row] root = %t kind = sum : memref<8x6xf32>
  %2 = scf.for %i = %c0 to %c1 step %c1 iter_args(%w = %0) -> (!summa.token) {
    summa.wait %w
    %n = summa.async_broadcast %a on @grid axes = [col] root = %i : memref<4x8xf32>
    scf.yield %n : !summa.token
  }
  summa.wait %1
  summa.wait %2
  return
}

// -----

// A one-row operand whose row stride is 1 (as a reshape can leave it): the
// leading dimension passed is at least the row's length, which BLAS and
// cuBLAS require; a matrix of several rows passes its row stride.
// CHECK-LABEL: func.func @one_row_stride
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg1
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[SIZES]]#0, %c1
// CHECK: %[[WIDE:.*]] = arith.maxsi %[[STRIDES]]#0, %[[SIZES]]#1
// CHECK: %[[LEAST:.*]] = arith.maxsi %[[WIDE]], %c1
// CHECK: %[[LDB:.*]] = arith.select %[[ONE]], %[[LEAST]], %[[STRIDES]]#0
// CHECK: %[[LDB64:.*]] = arith.index_cast %[[LDB]] : index to i64
// CHECK: call @summaRtMatmul(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LDB64]],
func.func @one_row_stride(%a: memref<4x1xf32>, %b: memref<1x64xf32, strided<[1, 1]>>, %c: memref<4x64xf32>) {
  linalg.matmul ins(%a, %b : memref<4x1xf32>, memref<1x64xf32, strided<[1, 1]>>) outs(%c : memref<4x64xf32>)
  return
}
