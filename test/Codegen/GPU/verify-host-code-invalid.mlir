// RUN: summa-opt %s -split-input-file -verify-diagnostics -summa-verify-host-code -o /dev/null

func.func @load(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'memref.load' reads or writes a buffer on the host, but with --target=cuda every buffer is device memory: only kernels and runtime calls may touch it}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}

// -----

func.func @copy(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @below {{'memref.copy' reads or writes a buffer on the host}}
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

func.func @structured(%x: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'linalg.fill' was not turned into a GPU kernel}}
  linalg.fill ins(%zero : f32) outs(%x : memref<4xf32>)
  return
}

// -----

func.func @loop(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @below {{'memref.store' reads or writes a buffer on the host}}
    memref.store %zero, %x[%i] : memref<4xf32>
  }
  return
}

// -----

func.func @stack() {
  // expected-error @below {{'memref.alloca' allocates on the host stack}}
  %a = memref.alloca() : memref<4xf32>
  return
}

// -----

memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
func.func @global(%d: memref<2xf32>) {
  // A global read by anything but a copy to the device.
  // expected-error @below {{'memref.get_global' takes a host global (other than as a copy's source)}}
  %g = memref.get_global @table : memref<2xf32>
  %t = gpu.wait async
  %c = gpu.memcpy async [%t] %d, %g : memref<2xf32>, memref<2xf32>
  gpu.wait [%c]
  %p = memref.extract_aligned_pointer_as_index %g : memref<2xf32> -> index
  return
}

// -----

// Ops inside a kernel that is not outlined yet are device code.
func.func @in_launch(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%a = %c1, %b = %c1, %c = %c1)
             threads(%tx, %ty, %tz) in (%d = %c1, %e = %c1, %f = %c1) {
    memref.store %zero, %x[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}
