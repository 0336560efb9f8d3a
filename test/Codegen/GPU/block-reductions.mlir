// RUN: summa-opt %s -summa-block-reductions=block-size=256 -split-input-file | FileCheck %s
// RUN: summa-opt %s -summa-block-reductions=block-size=7 -split-input-file | FileCheck %s --check-prefix=SMALL

// A row sum (softmax's denominator: the exp fused into it) becomes one
// outer iteration per row and, inside it, a thread loop whose threads each
// sum a strided part of the row, combined by scf.reduce; the old value of
// the output is combined last. 64 elements: 64 threads (a reduction shorter
// than the block size uses its length rounded up to a warp).
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.*]]: memref<8x64xf32>, %[[M:.*]]: memref<8xf32>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[C8]]) step (%{{.*}}) {
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[M]][%[[I]]]
// CHECK: %[[ALL:.*]] = scf.parallel (%[[TID:.*]]) = (%{{.*}}) to (%[[T:.*]]) step (%{{.*}}) init (%[[ZERO]]) -> f32 {
// CHECK-NEXT: %[[PART:.*]] = scf.for %[[R:.*]] = %[[TID]] to %[[L:.*]] step %[[T]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[R]]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[E]], %[[ACC]]
// CHECK-NEXT: scf.yield %[[S]]
// CHECK: scf.reduce(%[[PART]] : f32) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[AB:.*]] = arith.addf %[[B]], %[[A]]
// CHECK-NEXT: scf.reduce.return %[[AB]]
// CHECK: %[[NEW:.*]] = arith.addf %[[ALL]], %[[OLD]]
// CHECK-NEXT: memref.store %[[NEW]], %[[M]][%[[I]]]
// CHECK: } {summa.block_reduction}
// CHECK-NOT: linalg.generic
// With a block size of 7, seven threads stride over the row.
// SMALL-LABEL: func.func @row_sum
// SMALL: %[[T:.*]] = arith.constant 7 : index
// SMALL: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[T]])
// SMALL: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[T]]
func.func @row_sum(%x: memref<8x64xf32>, %m: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x64xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %e = math.exp %a : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row maximum over the last of three dimensions (attention's rows per
// batch and head): the two parallel dimensions stay an outer loop of two,
// the identity of maximumf is -inf.
// CHECK-LABEL: func.func @row_max
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[L:.*]] = arith.constant 40 : index
// CHECK-DAG: %[[T:.*]] = arith.constant 64 : index
// CHECK: scf.parallel (%[[B:.*]], %[[I:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%[[T]]) step ({{.*}}) init (%[[NEGINF]]) -> f32
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[L]] step %[[T]]
// CHECK: memref.load %{{.*}}[%[[B]], %[[I]], %[[R]]]
// CHECK: arith.maximumf
// CHECK: scf.reduce
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[B]], %[[I]]]
// CHECK: } {summa.block_reduction}
func.func @row_max(%x: memref<4x6x40xf32>, %m: memref<4x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<4x6x40xf32>) outs(%m : memref<4x6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A loss: every dimension reduced, into a one-element output indexed by the
// constant 0. One block; the two reduction dimensions are one linearised
// index of 16 x 16, split again by the row length.
// CHECK-LABEL: func.func @loss
// CHECK-SAME: (%[[X:.*]]: memref<16x16xf32>, %[[Y:.*]]: memref<16x16xf32>, %[[L:.*]]: memref<1xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[N:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C1]]) step
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[N]]
// CHECK: %[[J:.*]] = arith.remui %[[R]], %[[C16]]
// CHECK: %[[I:.*]] = arith.divui %[[R]], %[[C16]]
// CHECK: memref.load %[[X]][%[[I]], %[[J]]]
// CHECK: memref.load %[[Y]][%[[I]], %[[J]]]
// CHECK: } {summa.block_reduction}
func.func @loss(%x: memref<16x16xf32>, %y: memref<16x16xf32>, %l: memref<1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0)>], iterator_types = ["reduction", "reduction"]} ins(%x, %y : memref<16x16xf32>, memref<16x16xf32>) outs(%l : memref<1xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A long full reduction (128 x 256 = 32768 elements) is a two-level tree:
// blocks of 256 threads reduce chunks of 4096 elements (16 per thread) into
// a buffer of 8 partial results, one more block reduces those into the
// output.
// CHECK-LABEL: func.func @long_loss
// CHECK-SAME: (%[[X:.*]]: memref<128x256xf32>, %[[L:.*]]: memref<f32>)
// CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<8xf32>
// CHECK-DAG: %[[CHUNKS:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[CHUNK:.*]] = arith.constant 4096 : index
// CHECK-DAG: %[[TOTAL:.*]] = arith.constant 32768 : index
// CHECK-DAG: %[[T:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[T8:.*]] = arith.constant 32 : index
// CHECK: scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%[[CHUNKS]]) step
// CHECK: %[[LO:.*]] = arith.muli %[[C]], %[[CHUNK]]
// CHECK: %[[END:.*]] = arith.addi %[[LO]], %[[CHUNK]]
// CHECK: %[[HI:.*]] = arith.minui %[[END]], %[[TOTAL]]
// CHECK: scf.parallel (%[[TID:.*]]) = (%{{.*}}) to (%[[T]])
// CHECK: %[[FIRST:.*]] = arith.addi %[[LO]], %[[TID]]
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[HI]] step %[[T]]
// CHECK: memref.store %{{.*}}, %[[PARTIALS]][%[[C]]]
// CHECK: } {summa.block_reduction}
// CHECK: %[[OLD:.*]] = memref.load %[[L]][]
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[T8]])
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[CHUNKS]] step %[[T8]]
// CHECK: memref.load %[[PARTIALS]][%[[R]]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[L]][]
// CHECK: } {summa.block_reduction}
// CHECK: memref.dealloc %[[PARTIALS]]
func.func @long_loss(%x: memref<128x256xf32>, %l: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : memref<128x256xf32>) outs(%l : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// What stays one loop per thread: a column sum (the reduction is not the
// contiguous index), a short row, a body whose result is not a known
// combiner of the output, two outputs, a dynamic row.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: summa.block_reduction
// CHECK-COUNT-5: linalg.generic
func.func @kept(%x: memref<64x8xf32>, %c: memref<8xf32>, %s: memref<8x16xf32>, %m: memref<8xf32>,
                %w: memref<8x64xf32>, %m2: memref<8xf32>, %d: memref<8x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x8xf32>) outs(%c : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%s : memref<8x16xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%w : memref<8x64xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.subf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%w : memref<8x64xf32>) outs(%m, %m2 : memref<8xf32>, memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32, %acc2: f32):
    %r = arith.addf %a, %acc : f32
    %r2 = arith.maximumf %a, %acc2 : f32
    linalg.yield %r, %r2 : f32, f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%d : memref<8x?xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A bf16 row sum accumulates in f32 (a warp shuffle moves 32 bits; a bf16
// running sum would lose the row's digits): each element is extended, the
// identity, the threads' partial sums and their combination are f32, and
// the result is truncated once, when stored.
// CHECK-LABEL: func.func @row_sum_bf16
// CHECK-SAME: (%[[X:.*]]: memref<8x64xbf16>, %[[M:.*]]: memref<8xbf16>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[OLD:.*]] = memref.load %[[M]][%[[I:.*]]] : memref<8xbf16>
// CHECK: %[[ALL:.*]] = scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%[[ZERO]]) -> f32 {
// CHECK: scf.for %{{.*}} = %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[V:.*]] = memref.load %[[X]]
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : bf16
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[SQ]] : bf16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[W]], %[[ACC]] : f32
// CHECK: scf.reduce(%{{.*}} : f32)
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: %[[WOLD:.*]] = arith.extf %[[OLD]] : bf16 to f32
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[ALL]], %[[WOLD]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[NEW]] : f32 to bf16
// CHECK-NEXT: memref.store %[[T]], %[[M]][%[[I]]]
func.func @row_sum_bf16(%x: memref<8x64xbf16>, %m: memref<8xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x64xbf16>) outs(%m : memref<8xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %sq = arith.mulf %a, %a : bf16
    %s = arith.addf %sq, %acc : bf16
    linalg.yield %s : bf16
  }
  return
}

// -----

// Integers narrower than 32 bits accumulate in i32 for the same reason (no
// warp shuffle moves fewer bits): an i8 sum sign-extends its elements and
// truncates once; an i16 unsigned maximum and an i1 "any" (ori) zero-extend.
// CHECK-LABEL: func.func @row_sum_i8
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[OLD:.*]] = memref.load %{{.*}} : memref<8xi8>
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%[[ZERO]]) -> i32 {
// CHECK: %[[V:.*]] = memref.load
// CHECK-NEXT: %[[W:.*]] = arith.extsi %[[V]] : i8 to i32
// CHECK-NEXT: arith.addi %[[W]], %{{.*}} : i32
// CHECK: scf.reduce(%{{.*}} : i32)
// CHECK: %[[WOLD:.*]] = arith.extsi %[[OLD]] : i8 to i32
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %{{.*}}, %[[WOLD]] : i32
// CHECK-NEXT: %[[T:.*]] = arith.trunci %[[NEW]] : i32 to i8
// CHECK-NEXT: memref.store %[[T]]
func.func @row_sum_i8(%x: memref<8x64xi8>, %m: memref<8xi8>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x64xi8>) outs(%m : memref<8xi8>) {
  ^bb0(%a: i8, %acc: i8):
    %s = arith.addi %a, %acc : i8
    linalg.yield %s : i8
  }
  return
}

// -----

// CHECK-LABEL: func.func @row_max_u16
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK: arith.maxui %{{.*}} : i32
// CHECK: arith.trunci %{{.*}} : i32 to i16
func.func @row_max_u16(%x: memref<8x64xi16>, %m: memref<8xi16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x64xi16>) outs(%m : memref<8xi16>) {
  ^bb0(%a: i16, %acc: i16):
    %s = arith.maxui %a, %acc : i16
    linalg.yield %s : i16
  }
  return
}

// -----

// CHECK-LABEL: func.func @row_any_i1
// CHECK: arith.extui %{{.*}} : i1 to i32
// CHECK: arith.ori %{{.*}} : i32
// CHECK: arith.trunci %{{.*}} : i32 to i1
func.func @row_any_i1(%x: memref<8x64xi1>, %m: memref<8xi1>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x64xi1>) outs(%m : memref<8xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %s = arith.ori %a, %acc : i1
    linalg.yield %s : i1
  }
  return
}
