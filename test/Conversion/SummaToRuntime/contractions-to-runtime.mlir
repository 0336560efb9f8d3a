// RUN: summa-opt %s -convert-contractions-to-runtime -split-input-file | FileCheck %s

// Attention's scores: S[b, h, i, j] += Q[b, i, h, d] * K[b, j, h, d]. Per
// (b, h) a GEMM S = Q·Kᵀ on strided views: lda = ldb = heads·d = 32, ldc = 8.
// The innermost batch dimension (h) is one batched call with strides 8, 8
// and 64; the outer one (b) a loop moving all three by 256.
#q = affine_map<(b, h, i, j, d) -> (b, i, h, d)>
#k = affine_map<(b, h, i, j, d) -> (b, j, h, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
// CHECK-LABEL: func.func @scores
// CHECK-SAME: (%[[Q:.*]]: memref<4x8x4x8xf32>, %[[K:.*]]: memref<4x8x4x8xf32>, %[[S:.*]]: memref<4x4x8x8xf32>)
// CHECK-DAG: %[[QP:.*]] = memref.extract_aligned_pointer_as_index %[[Q]]
// CHECK-DAG: %[[KP:.*]] = memref.extract_aligned_pointer_as_index %[[K]]
// CHECK-DAG: %[[SP:.*]] = memref.extract_aligned_pointer_as_index %[[S]]
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: scf.for
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[QB:.*]] = arith.muli %[[B]], %[[C256]] : index
// CHECK-NEXT: %[[QOFF:.*]] = arith.addi %{{.*}}, %[[QB]] : index
// The call's constants in order: dtype 0 (f32); m = n = k = 8; transA 0,
// transB 1 (K is stored [j, d]), accumulate 1; lda 32, strideA 8; ldb 32,
// strideB 8; ldc 8, strideC 64; batch 4.
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 8 : index
// CHECK-NEXT: arith.constant 8 : index
// CHECK-NEXT: arith.constant 8 : index
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 32 : index
// CHECK-NEXT: arith.constant 8 : index
// CHECK-NEXT: arith.constant 32 : index
// CHECK-NEXT: arith.constant 8 : index
// CHECK-NEXT: arith.constant 8 : index
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: arith.constant 4 : index
// CHECK: call @summaRtMatmulBatched(%{{.*}}, %[[QP]], %{{.*}}, %[[KP]], %{{.*}}, %[[SP]], %{{.*}}) : (i32, index, i64, i64, i64, index, i64, i64, i64, index, i64, i64, i64, i64, i64, i64, i64, i32, i32, i32) -> ()
// CHECK-NOT: linalg.generic
func.func @scores(%q: memref<4x8x4x8xf32>, %k: memref<4x8x4x8xf32>, %s: memref<4x4x8x8xf32>) {
  linalg.generic {indexing_maps = [#q, #k, #s],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<4x8x4x8xf32>, memref<4x8x4x8xf32>) outs(%s : memref<4x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The constants of the call, checked on the unbatched case: a plain A·B
// written as a generic (accumulator first in the add) is one GEMM.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func.func @plain
// CHECK-NOT: scf.for
// dtype 0 (f32), m 3, n 7, k 5, transA 0, transB 0, accumulate 1, lda 5,
// ldb 7, ldc 7, a batch of one (strides 0): counted as a local GEMM.
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 3 : index
// CHECK-NEXT: arith.constant 7 : index
// CHECK-NEXT: arith.constant 5 : index
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 5 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant 7 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant 7 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant 1 : index
// CHECK: call @summaRtMatmulBatched(
// CHECK-NOT: linalg.generic
func.func @plain(%x: memref<3x5xf32>, %y: memref<5x7xf32>, %z: memref<3x7xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<3x5xf32>, memref<5x7xf32>) outs(%z : memref<3x7xf32>) {
  ^bb0(%p: f32, %r: f32, %acc: f32):
    %m = arith.mulf %r, %p : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left for the generic lowering: a body that is not out + a*b, and a
// reduction of one operand.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: summaRtMatmul
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: summaRtMatmul
// CHECK: return
func.func @left_alone(%x: memref<3x5xf32>, %y: memref<5x7xf32>, %z: memref<3x7xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<3x5xf32>, memref<5x7xf32>) outs(%z : memref<3x7xf32>) {
  ^bb0(%p: f32, %r: f32, %acc: f32):
    %m = arith.maximumf %p, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #a, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<3x5xf32>, memref<3x5xf32>) outs(%z : memref<3x7xf32>) {
  ^bb0(%p: f32, %r: f32, %acc: f32):
    %m = arith.mulf %p, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An output contiguous along the first input's own dimension (zt[j, i] =
// x[i, k] y[k, j], as torch writes an attention backward's dK): the inputs
// swap roles, zt = yᵀ·xᵀ row by row: A = y stored [k, j] (transA 1, lda
// 7), B = x stored [i, k] (transB 1, ldb 5), m = 7, n = 3, k = 5, ldc 3.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#ct = affine_map<(i, j, k) -> (j, i)>
// CHECK-LABEL: func.func @transposed_output
// CHECK-SAME: (%[[X:.*]]: memref<3x5xf32>, %[[Y:.*]]: memref<5x7xf32>, %[[ZT:.*]]: memref<7x3xf32>)
// CHECK-DAG: %[[YP:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK-DAG: %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 7 : index
// CHECK-NEXT: arith.constant 3 : index
// CHECK-NEXT: arith.constant 5 : index
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 7 : index
// CHECK: call @summaRtMatmulBatched(%{{.*}}, %[[YP]], %{{.*}}, %[[XP]], %{{.*}})
// CHECK-NOT: linalg.generic
func.func @transposed_output(%x: memref<3x5xf32>, %y: memref<5x7xf32>, %zt: memref<7x3xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #ct], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<3x5xf32>, memref<5x7xf32>) outs(%zt : memref<7x3xf32>) {
  ^bb0(%p: f32, %r: f32, %acc: f32):
    %m = arith.mulf %p, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Grouped-query attention's P·V after summa-normalize: each key/value head
// serves 3 query heads, so M spans two loops (the group g and the query
// row i), laid out contiguously in P and in the output: one GEMM per
// (batch, key/value head) with m = 3 x 8 = 24 rows (lda 8, ldc 4), k = 8,
// n = 4; the batch of 2 key/value heads, the batch loop around it.
#p = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, j)>
#v = affine_map<(b, h, g, i, d, j) -> (b, h, j, d)>
#o = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, d)>
// CHECK-LABEL: func.func @grouped_query
// CHECK: scf.for
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 24 : index
// CHECK-NEXT: arith.constant 4 : index
// CHECK-NEXT: arith.constant 8 : index
// CHECK: call @summaRtMatmulBatched
// CHECK-NOT: linalg.generic
func.func @grouped_query(%p: memref<2x2x3x8x8xf32>, %v: memref<2x2x8x4xf32>, %o: memref<2x2x3x8x4xf32>) {
  linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : memref<2x2x3x8x8xf32>, memref<2x2x8x4xf32>) outs(%o : memref<2x2x3x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
