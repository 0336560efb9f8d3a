// RUN: summa-opt %s -summa-map-parallel-loops=block-size=32 -split-input-file | FileCheck %s
// RUN: summa-opt %s -summa-map-parallel-loops -split-input-file | FileCheck %s --check-prefix=DEFAULT

// A 2-D loop of 6x10 iterations becomes one dimension of 60, tiled by the
// block size: the tile loop on blocks, the loop in a tile on threads, with
// a guard for the last, partial block.
// CHECK-LABEL: func.func @two_d
// CHECK-SAME: (%[[X:.*]]: memref<6x10xf32>, %[[Y:.*]]: memref<6x10xf32>)
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %[[C10:c10[a-z0-9_]*]] : index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %[[C32]] : index
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[N]]) step (%[[STEP]]) {
// CHECK-NEXT: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[STEP]]) step (%{{.*}}) {
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[T]], %[[B]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK: scf.if
// CHECK-NEXT: %[[J:.*]] = arith.remsi %[[I]], %[[C10]] : index
// CHECK-NEXT: %[[II:.*]] = arith.divsi %[[I]], %[[C10]] : index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[II]], %[[J]]]
// CHECK-NEXT: memref.store %[[V]], %[[Y]][%[[II]], %[[J]]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// DEFAULT-LABEL: func.func @two_d
// DEFAULT: %[[C256:.*]] = arith.constant 256 : index
// DEFAULT: %[[STEP:.*]] = arith.muli %{{.*}}, %[[C256]] : index
// DEFAULT: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[STEP]])
func.func @two_d(%x: memref<6x10xf32>, %y: memref<6x10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c10) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<6x10xf32>
    memref.store %v, %y[%i, %j] : memref<6x10xf32>
  }
  return
}

// -----

// The collapsed index is split back into the original ones; a parallel
// loop nested in the body runs sequentially in each thread.
// CHECK-LABEL: func.func @nested
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.if
// CHECK-DAG: arith.remsi
// CHECK-DAG: arith.divsi
// CHECK: scf.parallel
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x
func.func @nested(%x: memref<4x5x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c1) {
    scf.parallel (%k) = (%c0) to (%c3) step (%c1) {
      memref.store %zero, %x[%i, %j, %k] : memref<4x5x3xf32>
    }
  }
  return
}

// -----

// Loops inside kernels are not host loops: left alone.
// CHECK-LABEL: func.func @in_kernel
// CHECK: gpu.launch
// CHECK: scf.parallel
// CHECK-NOT: mapping
func.func @in_kernel(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%a = %c1, %b = %c1, %c = %c1)
             threads(%tx, %ty, %tz) in (%d = %c1, %e = %c1, %f = %c1) {
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      memref.store %zero, %x[%i] : memref<4xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A one-dimensional loop is tiled without collapsing.
// CHECK-LABEL: func.func @one_d
// CHECK: scf.parallel
// CHECK-NEXT: scf.parallel
// CHECK-NOT: remsi
// CHECK: memref.store
func.func @one_d(%x: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    memref.store %zero, %x[%i] : memref<100xf32>
  }
  return
}

// -----

// A loop of summa-block-reductions: the outer loop (collapsed to one
// dimension) on blocks, one block per iteration without tiling; the nested
// reduction loop on the block's threads.
// CHECK-LABEL: func.func @block_reduction
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%{{.*}}) -> f32 {
// CHECK: scf.reduce
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: memref.store
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NOT: summa.block_reduction
func.func @block_reduction(%x: memref<4x6x64xf32>, %m: memref<4x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%b, %i) = (%c0, %c0) to (%c4, %c6) step (%c1, %c1) {
    %old = memref.load %m[%b, %i] : memref<4x6xf32>
    %all = scf.parallel (%t) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
      %v = memref.load %x[%b, %i, %t] : memref<4x6x64xf32>
      scf.reduce(%v : f32) {
      ^bb0(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        scf.reduce.return %s : f32
      }
    }
    %new = arith.addf %all, %old : f32
    memref.store %new, %m[%b, %i] : memref<4x6xf32>
    scf.reduce
  } {summa.block_reduction}
  return
}
