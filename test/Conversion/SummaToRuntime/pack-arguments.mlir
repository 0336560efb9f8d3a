// RUN: summa-opt %s --summa-pack-arguments=functions=model | FileCheck %s
// RUN: summa-opt %s --summa-pack-arguments=functions=model --finalize-memref-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// The buffers come as one array of data pointers; each memref is rebuilt
// from its pointer and its static shape (row-major strides, offset 0).
// Other functions keep their signatures.
// CHECK:       func.func @model(%[[P:.*]]: !llvm.ptr)
// CHECK:         %[[S0:.*]] = llvm.getelementptr %[[P]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[D0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.insertvalue %[[D0]], %{{.*}}[0]
// CHECK:         llvm.insertvalue %[[D0]], %{{.*}}[1]
// CHECK:         %[[C16:.*]] = llvm.mlir.constant(16 : i64)
// CHECK:         llvm.insertvalue %[[C16]], %{{.*}}[3, 1]
// CHECK:         %[[X:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<4x16xf32>
// CHECK:         %[[S1:.*]] = llvm.getelementptr %[[P]][1]
// CHECK:         %[[Y:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
// CHECK:         call @helper(%[[X]], %[[Y]])
// CHECK-LABEL: func.func private @helper(memref<4x16xf32>, memref<f32>)
// LLVM-LABEL: llvm.func @model(%{{.*}}: !llvm.ptr)
// LLVM-NOT:   unrealized_conversion_cast
func.func @model(%x: memref<4x16xf32> {summa.name = "x"}, %loss: memref<f32>) {
  call @helper(%x, %loss) : (memref<4x16xf32>, memref<f32>) -> ()
  return
}
func.func private @helper(memref<4x16xf32>, memref<f32>)
