// RUN: summa-opt %s -convert-scalar-loads-to-runtime | FileCheck %s

// A decode step's position read on the host (bufferized tensor.extract of
// `pos`): a call of summaRtLoadScalar with the buffer's base, its offset and
// dtype 4 (i64). The loads inside a linalg op (a kernel's) and of a float
// stay.
// CHECK: func.func private @summaRtLoadScalar(index, i64, i32) -> i64
// CHECK-LABEL: func.func @position
// CHECK-SAME: (%[[POS:.*]]: memref<i64>, %[[IDS:.*]]: memref<2xi32, strided<[1], offset: 3>>, %[[W:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[POS]] : memref<i64> -> index
// CHECK: %{{.*}}, %[[OFF:.*]] = memref.extract_strided_metadata %[[POS]]
// CHECK: %[[I64:.*]] = arith.constant 4 : i32
// CHECK: %[[OI:.*]] = arith.index_cast %[[OFF]] : index to i64
// CHECK: %[[V:.*]] = call @summaRtLoadScalar(%[[P]], %[[OI]], %[[I64]]) : (index, i64, i32) -> i64
// An i32 at index 1 of a strided view: offset 3 + 1 * 1, dtype 5, narrowed.
// CHECK: %[[IP:.*]] = memref.extract_aligned_pointer_as_index %[[IDS]]
// CHECK: %{{.*}}, %[[IOFF:.*]], %{{.*}}, %[[ISTRIDE:.*]] = memref.extract_strided_metadata %[[IDS]]
// CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %[[ISTRIDE]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[IOFF]], %[[SCALED]] : index
// CHECK: %[[I32:.*]] = arith.constant 5 : i32
// CHECK: %[[ATI:.*]] = arith.index_cast %[[AT]] : index to i64
// CHECK: %[[W64:.*]] = call @summaRtLoadScalar(%[[IP]], %[[ATI]], %[[I32]])
// CHECK: %[[N:.*]] = arith.trunci %[[W64]] : i64 to i32
// CHECK: %[[F:.*]] = memref.load %[[W]]
// CHECK: linalg.generic
// CHECK: memref.load %[[IDS]]
// CHECK: return %[[V]], %[[N]], %[[F]]
func.func @position(%pos: memref<i64>, %ids: memref<2xi32, strided<[1], offset: 3>>, %w: memref<8xf32>, %out: memref<8xf32>) -> (i64, i32, f32) {
  %p = memref.load %pos[] : memref<i64>
  %c1 = arith.constant 1 : index
  %id = memref.load %ids[%c1] : memref<2xi32, strided<[1], offset: 3>>
  %f = memref.load %w[%c1] : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%out : memref<8xf32>) {
  ^bb0(%o: f32):
    %c0 = arith.constant 0 : index
    %k = memref.load %ids[%c0] : memref<2xi32, strided<[1], offset: 3>>
    %kf = arith.sitofp %k : i32 to f32
    linalg.yield %kf : f32
  }
  return %p, %id, %f : i64, i32, f32
}
