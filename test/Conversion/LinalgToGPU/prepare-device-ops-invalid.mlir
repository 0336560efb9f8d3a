// RUN: summa-opt %s -summa-prepare-device-ops -split-input-file -verify-diagnostics

// A global whose type cannot be allocated as it is (a strided layout) is
// not copied to the device: an error names it.
memref.global "private" constant @strided : memref<4xf32, strided<[2]>> = dense<1.0>
func.func @strided_global(%x: memref<4xf32>) {
  // expected-error @below {{summa-prepare-device-ops: the host global @strided of type 'memref<4xf32, strided<[2]>>' cannot be copied to the device (not a static shape with the identity layout)}}
  %g = memref.get_global @strided : memref<4xf32, strided<[2]>>
  return
}
