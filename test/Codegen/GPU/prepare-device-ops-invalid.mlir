// RUN: summa-opt %s -summa-prepare-device-ops -split-input-file -verify-diagnostics

// A global whose type cannot be allocated as it is (a strided layout) is
// not copied to the device: an error names it.
memref.global "private" constant @strided : memref<4xf32, strided<[2]>> = dense<1.0>
func.func @strided_global(%x: memref<4xf32>) {
  // expected-error @below {{summa-prepare-device-ops: the host global @strided of type 'memref<4xf32, strided<[2]>>' cannot be copied to the device (not a static shape with the identity layout)}}
  %g = memref.get_global @strided : memref<4xf32, strided<[2]>>
  return
}

// -----

// A global that is not a constant cannot be given to the device as a copy.
memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @mutable_global(%x: memref<4xf32>) {
  // expected-error @below {{summa-prepare-device-ops: the host global @state is not a constant: a copy on the device would not see the host's writes, nor the host the device's}}
  %g = memref.get_global @state : memref<4xf32>
  return
}
