// RUN: summa-opt %s -split-input-file --summa-pack-arguments=functions=model -verify-diagnostics

// Only static, contiguous buffers can be passed as a bare pointer.
// expected-error @+1 {{summa-pack-arguments: argument #1 of @model has type 'memref<?x16xf32>'; only static, contiguous memrefs can be passed as a pointer}}
func.func @model(%x: memref<4x16xf32>, %y: memref<?x16xf32>) {
  return
}

// -----

// expected-error @+1 {{summa-pack-arguments: argument #0 of @model has type 'memref<4x16xf32, strided<[32, 1]>>'; only static, contiguous memrefs can be passed as a pointer}}
func.func @model(%x: memref<4x16xf32, strided<[32, 1]>>) {
  return
}

// -----

// expected-error @+1 {{summa-pack-arguments: @model has results (buffers are out-parameters)}}
func.func @model(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// expected-error @+1 {{summa-pack-arguments: no function @model with a body}}
module {
  func.func private @model(memref<4xf32>)
}
