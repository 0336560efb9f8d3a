// RUN: summa-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(ownership-based-buffer-deallocation,summa-dealloc-at-last-use,canonicalize))" | FileCheck %s

// Each buffer is freed right after the last op that uses it or one of its
// views, not at the end of the function; no bufferization.dealloc is left.
// CHECK-LABEL: func.func @chain
// CHECK:       %[[A:.*]] = memref.alloc()
// CHECK-NEXT:  linalg.fill {{.*}} outs(%[[A]]
// CHECK-NEXT:  %[[B:.*]] = memref.alloc()
// CHECK-NEXT:  linalg.add ins(%[[A]], {{.*}} outs(%[[B]]
// CHECK-NEXT:  memref.dealloc %[[A]]
// CHECK-NEXT:  %[[V:.*]] = memref.subview %[[B]]
// CHECK-NEXT:  %[[C:.*]] = memref.alloc()
// CHECK-NEXT:  linalg.fill {{.*}} outs(%[[C]]
// CHECK-NEXT:  memref.subview
// CHECK-NEXT:  memref.copy %[[V]]
// CHECK-NEXT:  memref.dealloc %[[B]]
// CHECK-NEXT:  memref.copy %[[C]]
// CHECK-NEXT:  memref.dealloc %[[C]]
// CHECK-NOT:   bufferization.dealloc
// CHECK:       return
func.func @chain(%x: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c0 : f32) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  linalg.add ins(%a, %x : memref<8xf32>, memref<8xf32>) outs(%b : memref<8xf32>)
  %v = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %c = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c0 : f32) outs(%c : memref<8xf32>)
  %w = memref.subview %out[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %v, %w : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1]>>
  memref.copy %c, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// A buffer used inside a loop is freed after the loop; the loop's own
// buffer after its last use in the body.
// CHECK-LABEL: func.func @loop
// CHECK:       %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK:       scf.for
// CHECK:         %[[T:.*]] = memref.alloc()
// CHECK:         memref.copy %[[T]], %[[A]]
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:  }
// CHECK-NEXT:  memref.copy %[[A]]
// CHECK-NEXT:  memref.dealloc %[[A]]
// CHECK-NOT:   bufferization.dealloc
func.func @loop(%x: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<8xf32>
  memref.copy %x, %a : memref<8xf32> to memref<8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc() : memref<8xf32>
    linalg.add ins(%a, %x : memref<8xf32>, memref<8xf32>) outs(%t : memref<8xf32>)
    memref.copy %t, %a : memref<8xf32> to memref<8xf32>
  }
  memref.copy %a, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// A buffer that a loop carries escapes its block: its deallocation stays
// with upstream's ownership tracking.
// CHECK-LABEL: func.func @carried
// CHECK:       %[[A:.*]] = memref.alloc()
// CHECK-NOT:   memref.dealloc %[[A]]
// CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[A]]
// CHECK:         bufferization.dealloc
// CHECK:       bufferization.dealloc (%[[A]], {{.*}} if (%true,
func.func @carried(%x: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<8xf32>
  memref.copy %x, %a : memref<8xf32> to memref<8xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> memref<8xf32> {
    %t = memref.alloc() : memref<8xf32>
    linalg.add ins(%acc, %x : memref<8xf32>, memref<8xf32>) outs(%t : memref<8xf32>)
    scf.yield %t : memref<8xf32>
  }
  memref.copy %r, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// A buffer a function returns is not freed in it.
// CHECK-LABEL: func.func @returned
// CHECK-NOT:   memref.dealloc
// CHECK:       return
func.func @returned(%x: memref<8xf32>) -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  memref.copy %x, %a : memref<8xf32> to memref<8xf32>
  return %a : memref<8xf32>
}
