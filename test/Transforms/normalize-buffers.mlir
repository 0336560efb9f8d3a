// RUN: summa-opt %s --summa-normalize | FileCheck %s

// Buffers are left alone (found by running the pipeline over every test
// input: a contraction on memrefs has no result to replace).
// CHECK-LABEL: func.func @on_buffers
// CHECK: linalg.generic
#mk3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @on_buffers(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  linalg.generic {indexing_maps = [#mk3, #kn3, #mn3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
