// RUN: summa-opt %s -summa-lower-block-reductions | FileCheck %s

// A gpu.all_reduce at the top level of a kernel (every thread of the block
// reaches it) is expanded: butterfly shuffles within each warp, the warps'
// partial sums through workgroup memory between barriers, one more warp
// reduction.
// CHECK-LABEL: gpu.func @row_sum
// CHECK-SAME: workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.all_reduce
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: gpu.shuffle xor
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_sum(%x: memref<4x300xf32>, %y: memref<4xf32>) kernel {
      %row = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %x[%row, %t] : memref<4x300xf32>
      %s = gpu.all_reduce add %v {} : (f32) -> f32
      memref.store %s, %y[%row] : memref<4xf32>
      gpu.return
    }
  }
}
