// RUN: summa-opt %s -split-input-file -verify-diagnostics -summa-merge-kernel-modules -o /dev/null

// Modules compiled for different chips cannot be one binary.
module attributes {gpu.container_module} {
  gpu.module @a [#nvvm.target<chip = "sm_80">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // expected-error @below {{cannot merge kernel module @b with @a: their targets, offloading handlers or attributes differ}}
  gpu.module @b [#nvvm.target<chip = "sm_90">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
