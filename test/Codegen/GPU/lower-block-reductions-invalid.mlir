// RUN: summa-opt %s -summa-lower-block-reductions -verify-diagnostics

// Under a condition not every thread of the block may reach the reduction.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @guarded(%x: memref<300xf32>, %y: memref<1xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %in = arith.cmpi ult, %t, %n : index
      scf.if %in {
        %v = memref.load %x[%t] : memref<300xf32>
        // expected-error @below {{summa-lower-block-reductions: a gpu.all_reduce that not every thread of its block may reach (it is not at the top level of a kernel)}}
        %s = gpu.all_reduce add %v {} : (f32) -> f32
        memref.store %s, %y[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
}
