// RUN: summa-opt %s -summa-prepare-device-ops -split-input-file | FileCheck %s
// RUN: summa-opt %s -summa-prepare-device-ops=globals-to-device=false -split-input-file | FileCheck %s --check-prefix=HOST

// A copy becomes linalg.copy, strided operands included, so that it is
// lowered to a kernel like every structured op.
// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x4xf32>)
// CHECK: linalg.copy ins(%[[A]] : memref<8x16xf32>) outs(%[[B]] : memref<8x16xf32>)
// CHECK: %[[SV:.*]] = memref.subview %[[A]][0, 4] [4, 4] [1, 1]
// CHECK: linalg.copy ins(%[[SV]] : memref<4x4xf32, strided<[16, 1], offset: 4>>) outs(%[[C]] : memref<4x4xf32>)
// CHECK-NOT: memref.copy
func.func @copies(%a: memref<8x16xf32>, %b: memref<8x16xf32>, %c: memref<4x4xf32>) {
  memref.copy %a, %b : memref<8x16xf32> to memref<8x16xf32>
  %s = memref.subview %a[0, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 4>>
  memref.copy %s, %c : memref<4x4xf32, strided<[16, 1], offset: 4>> to memref<4x4xf32>
  return
}

// -----

// A full reduction (no parallel iterator) and a fill of a 0-d buffer are
// wrapped in a one-iteration scf.parallel: one-thread kernels, not host
// loops. An op with a parallel iterator is left as it is.
// CHECK-LABEL: func.func @serial
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C1]]) step (%[[C1]]) {
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<f32>)
// CHECK-NEXT: scf.reduce
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK: scf.reduce
// CHECK: }
// CHECK-NEXT: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0
#all = affine_map<(i, j) -> (i, j)>
#none = affine_map<(i, j) -> ()>
#row = affine_map<(i, j) -> (i)>
func.func @serial(%x: memref<8x16xf32>, %sum: memref<f32>, %rows: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%sum : memref<f32>)
  linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<8x16xf32>) outs(%sum : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#all, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x16xf32>) outs(%rows : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Kernel bodies and ops already inside a parallel loop are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: gpu.launch
// CHECK: memref.copy
// CHECK: scf.parallel
// CHECK-NEXT: linalg.fill
// CHECK-NOT: scf.parallel
func.func @left_alone(%a: memref<4xf32>, %b: memref<4xf32>, %s: memref<f32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
    gpu.terminator
  }
  %c0 = arith.constant 0 : index
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
  }
  return
}

// -----

// A host global (a constant of the model) is copied at the function's entry
// into a device buffer, one per global however often it is read, through
// the runtime's stream (gpu.wait async: its compute stream); every use reads
// the copy, which is freed before the return.
memref.global "private" constant @mask : memref<4x4xf32> = dense<1.0>
memref.global "private" constant @table : memref<8xf32> = dense<2.0>
// CHECK-LABEL: func.func @globals
// CHECK-SAME: (%[[X:.*]]: memref<4x4xf32>, %[[Y:.*]]: memref<8xf32>)
// CHECK: %[[HM:.*]] = memref.get_global @mask : memref<4x4xf32>
// CHECK-NEXT: %[[DM:.*]] = memref.alloc() : memref<4x4xf32>
// CHECK-NEXT: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[T1:.*]] = gpu.memcpy async [%[[T0]]] %[[DM]], %[[HM]] : memref<4x4xf32>, memref<4x4xf32>
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: %[[HT:.*]] = memref.get_global @table : memref<8xf32>
// CHECK-NEXT: %[[DT:.*]] = memref.alloc() : memref<8xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[DT]], %[[HT]]
// CHECK-NOT: memref.get_global
// CHECK: linalg.add ins(%[[X]], %[[DM]] : {{.*}}) outs(%[[X]] :
// CHECK: linalg.add ins(%[[Y]], %[[DT]] : {{.*}}) outs(%[[Y]] :
// CHECK: linalg.add ins(%[[X]], %[[DM]] : {{.*}}) outs(%[[X]] :
// CHECK: memref.dealloc %[[DM]]
// CHECK-NEXT: memref.dealloc %[[DT]]
// CHECK-NEXT: return
// With globals-to-device=false (--gpu-loops-on-host) the loops read the
// globals where they are.
// HOST-LABEL: func.func @globals
// HOST-NOT: gpu.memcpy
// HOST-COUNT-3: memref.get_global
func.func @globals(%x: memref<4x4xf32>, %y: memref<8xf32>) {
  %m = memref.get_global @mask : memref<4x4xf32>
  linalg.add ins(%x, %m : memref<4x4xf32>, memref<4x4xf32>) outs(%x : memref<4x4xf32>)
  %t = memref.get_global @table : memref<8xf32>
  linalg.add ins(%y, %t : memref<8xf32>, memref<8xf32>) outs(%y : memref<8xf32>)
  %m2 = memref.get_global @mask : memref<4x4xf32>
  linalg.add ins(%x, %m2 : memref<4x4xf32>, memref<4x4xf32>) outs(%x : memref<4x4xf32>)
  return
}
