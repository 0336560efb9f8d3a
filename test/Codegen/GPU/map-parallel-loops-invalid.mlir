// RUN: not summa-opt %s -summa-map-parallel-loops=block-size=2048 2>&1 | FileCheck %s
// RUN: not summa-opt %s -summa-map-parallel-loops=block-size=0 2>&1 | FileCheck %s --check-prefix=ZERO

// CHECK: error: summa-map-parallel-loops: block-size must be in [1, 1024], got 2048
// ZERO: error: summa-map-parallel-loops: block-size must be in [1, 1024], got 0
func.func @f() {
  return
}

// RUN: not summa-opt %s -summa-map-parallel-loops 2>&1 | FileCheck %s --check-prefix=SHAPE
// A block-reduction loop must hold exactly one one-dimensional reduction
// loop for the block's threads.
// SHAPE: error: summa-map-parallel-loops: a block reduction needs one nested one-dimensional reduction loop
func.func @not_a_block_reduction(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %m[%i] : memref<4xf32>
    scf.reduce
  } {summa.block_reduction}
  return
}
