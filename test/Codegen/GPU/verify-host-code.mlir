// RUN: summa-opt %s -summa-verify-host-code | FileCheck %s

// What a host function may do with --target=cuda: allocate and free
// buffers, take views and metadata, call the runtime, launch kernels.
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func @kernels::@fill
module attributes {gpu.container_module} {
  func.func private @summaRtBroadcast(index, i64, i64, i32, i32, i64)
  func.func @host(%x: memref<8x8xf32>) {
    %c1 = arith.constant 1 : index
    %c0_i64 = arith.constant 0 : i64
    %c64_i64 = arith.constant 64 : i64
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %buf = memref.alloc() : memref<8x8xf32>
    %view = memref.subview %buf[0, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1]>>
    %p = memref.extract_aligned_pointer_as_index %buf : memref<8x8xf32> -> index
    func.call @summaRtBroadcast(%p, %c0_i64, %c64_i64, %c0_i32, %c2_i32, %c0_i64) : (index, i64, i64, i32, i32, i64) -> ()
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<8x8xf32>)
    memref.dealloc %buf : memref<8x8xf32>
    return
  }
  // A host global copied to a device buffer (summa-prepare-device-ops).
  // CHECK-LABEL: func.func @constant
  // CHECK: gpu.memcpy
  memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
  func.func @constant(%d: memref<2xf32>) {
    %g = memref.get_global @table : memref<2xf32>
    %t = gpu.wait async
    %c = gpu.memcpy async [%t] %d, %g : memref<2xf32>, memref<2xf32>
    gpu.wait [%c]
    return
  }
  gpu.module @kernels {
    // Kernel code is not host code: its loads and stores are fine.
    gpu.func @fill(%b: memref<8x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %b[%c0, %c0] : memref<8x8xf32>
      memref.store %v, %b[%c0, %c0] : memref<8x8xf32>
      gpu.return
    }
  }
}
