// RUN: summa-opt %s --summa-distinct-results --split-input-file --verify-diagnostics | FileCheck %s
// RUN: summa-opt %s --summa-distinct-results --buffer-results-to-out-params="hoist-static-allocs=true modify-public-functions=true" --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=OUT

// The second and third returns of %u get buffers of their own; the first
// keeps %u, the argument is returned as it is.
// CHECK-LABEL: func.func @twice
// CHECK: %[[U:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[C1:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: memref.copy %[[U]], %[[C1]]
// CHECK: %[[C2:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: memref.copy %[[U]], %[[C2]]
// CHECK-NEXT: return %[[U]], %arg0, %[[C1]], %[[C2]]
// OUT-LABEL: func.func @twice(%arg0: memref<8xf32>, %arg1: memref<8xf32>, %arg2: memref<8xf32>, %arg3: memref<8xf32>, %arg4: memref<8xf32>)
// OUT-NOT: memref.alloc
// OUT: memref.copy %arg1, %arg3
// OUT: memref.copy %arg1, %arg4
// OUT: memref.copy %arg0, %arg2
func.func @twice(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) {
  %u = memref.alloc() : memref<8xf32>
  memref.copy %x, %u : memref<8xf32> to memref<8xf32>
  return %u, %x, %u, %u : memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>
}

// -----

// A dynamic size is read from the buffer returned twice; a strided result
// type is kept (the copy is cast to it).
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D:.*]] = memref.dim %arg0, %c0
// CHECK: %[[C:.*]] = memref.alloc(%[[D]]) : memref<?x4xf32>
// CHECK-NEXT: memref.copy %arg0, %[[C]]
// CHECK-NEXT: %[[S:.*]] = memref.cast %[[C]] : memref<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: return %arg0, %[[S]]
func.func @dynamic(%x: memref<?x4xf32, strided<[?, ?], offset: ?>>) -> (memref<?x4xf32, strided<[?, ?], offset: ?>>, memref<?x4xf32, strided<[?, ?], offset: ?>>) {
  return %x, %x : memref<?x4xf32, strided<[?, ?], offset: ?>>, memref<?x4xf32, strided<[?, ?], offset: ?>>
}

// -----

// Tensors and scalars are not touched.
// CHECK-LABEL: func.func @values
// CHECK-NEXT: return %arg0, %arg0, %arg1, %arg1
func.func @values(%x: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, tensor<4xf32>, f32, f32) {
  return %x, %x, %s, %s : tensor<4xf32>, tensor<4xf32>, f32, f32
}

// -----

func.func @unranked(%x: memref<*xf32>) -> (memref<*xf32>, memref<*xf32>) {
  // expected-error @+1 {{'func.return' op returns the unranked buffer 'memref<*xf32>' as result 1 and as an earlier result: one of them needs a buffer of its own, which an unranked type cannot allocate}}
  return %x, %x : memref<*xf32>, memref<*xf32>
}
