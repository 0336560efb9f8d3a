// RUN: summa-opt %s -split-input-file -summa-merge-kernel-modules | FileCheck %s

// gpu-kernel-outlining's form: a module per kernel, every kernel of a
// function named alike. They move into one module, each named after the
// module it came from; the launches follow. A module of two symbols names
// them <module>_<symbol>, and the call between them follows the rename.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:       func.func @step
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch_func @summa_kernels::@step_kernel blocks
// CHECK-NEXT:    gpu.launch_func @summa_kernels::@step_kernel_0 blocks
// CHECK-NEXT:    gpu.launch_func @summa_kernels::@pair_entry blocks
// CHECK-NOT:   gpu.module @step_kernel
// CHECK:       gpu.module @summa_kernels [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT:    gpu.func @step_kernel(%{{.*}}: memref<8xf32>) kernel
// CHECK:         gpu.func @step_kernel_0(%{{.*}}: memref<8xf32>) kernel
// CHECK:         func.func private @pair_helper
// CHECK:         gpu.func @pair_entry(%{{.*}}: memref<8xf32>) kernel
// CHECK:           func.call @pair_helper
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func @step(%b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @step_kernel::@step_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    gpu.launch_func @step_kernel_0::@step_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    gpu.launch_func @pair::@entry blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    return
  }
  gpu.module @step_kernel [#nvvm.target<chip = "sm_90">] {
    gpu.func @step_kernel(%b: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %b[%c0] : memref<8xf32>
      memref.store %v, %b[%c0] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @step_kernel_0 [#nvvm.target<chip = "sm_90">] {
    gpu.func @step_kernel(%b: memref<8xf32>) kernel {
      %c1 = arith.constant 1 : index
      %v = memref.load %b[%c1] : memref<8xf32>
      memref.store %v, %b[%c1] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @pair [#nvvm.target<chip = "sm_90">] {
    func.func private @helper(%b: memref<8xf32>) {
      return
    }
    gpu.func @entry(%b: memref<8xf32>) kernel {
      func.call @helper(%b) : (memref<8xf32>) -> ()
      gpu.return
    }
  }
}

// -----

// One module, or none: nothing to merge.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.launch_func @only::@k
// CHECK: gpu.module @only
module attributes {gpu.container_module} {
  func.func @f(%b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @only::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    return
  }
  gpu.module @only {
    gpu.func @k(%b: memref<8xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A host symbol already named summa_kernels: the merged module's name is
// uniqued.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func private @summa_kernels()
// CHECK: gpu.launch_func @summa_kernels_0::@a
// CHECK: gpu.launch_func @summa_kernels_0::@b
// CHECK: gpu.module @summa_kernels_0
module attributes {gpu.container_module} {
  func.func private @summa_kernels()
  func.func @f(%b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    return
  }
  gpu.module @a {
    gpu.func @k(%b: memref<8xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @b {
    gpu.func @k(%b: memref<8xf32>) kernel {
      gpu.return
    }
  }
}
