// RUN: summa-opt %s -split-input-file --summa-outline-dispatches | FileCheck %s

// Each linalg op and loop at the top level of a function becomes a call of
// an internal, never-inlined function; its constants are copied in, other
// values are arguments, its results are returned. The two adds of the same
// form share one function. What is left (the glue) is compiled without
// optimisation, its body in blocks after an entry block that only branches.
// CHECK-LABEL: func.func private @model_dispatch_0(
// CHECK-SAME:      %[[Y:.*]]: memref<8xf32>)
// CHECK-SAME:      llvm.linkage = #llvm.linkage<internal>
// CHECK-SAME:      passthrough = ["noinline"]
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT:    linalg.fill ins(%[[Z]] : f32) outs(%[[Y]] : memref<8xf32>)
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @model_dispatch_1(
// CHECK-SAME:      %[[P:.*]]: memref<8xf32>, %[[Q:.*]]: memref<8xf32>)
// CHECK-NEXT:    linalg.add ins(%[[P]], %[[Q]] : {{.*}}) outs(%[[P]] :
// CHECK-LABEL: func.func private @model_dispatch_2(
// CHECK-SAME:      %[[N:.*]]: index, %[[S:.*]]: f32) -> f32
// CHECK:         %[[R:.*]] = scf.for {{.*}} to %[[N]]
// CHECK:         return %[[R]] : f32
// CHECK-NOT:   func.func private @model_dispatch_3
// CHECK-LABEL: func.func @model(
// CHECK-SAME:      passthrough = ["noinline", "optnone"]
// CHECK-NEXT:    cf.br ^[[BODY:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK:         %[[A:.*]] = memref.alloc()
// CHECK:         call @model_dispatch_0(%[[A]])
// CHECK:         call @model_dispatch_1(%[[A]], %arg0)
// CHECK:         call @model_dispatch_1(%arg1, %arg0)
// CHECK:         %[[SUM:.*]] = call @model_dispatch_2(%arg2, %arg3) : (index, f32) -> f32
// CHECK:         memref.store %[[SUM]]
// CHECK-NOT:     linalg.
// CHECK-NOT:     scf.for
func.func @model(%x: memref<8xf32>, %out: memref<8xf32>, %n: index, %s: f32) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<8xf32>)
  linalg.add ins(%a, %x : memref<8xf32>, memref<8xf32>) outs(%a : memref<8xf32>)
  linalg.add ins(%out, %x : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>)
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %next = arith.addf %acc, %s : f32
    scf.yield %next : f32
  }
  memref.store %sum, %out[%c0] : memref<8xf32>
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// A function without loop nests is left as it is.
// CHECK-LABEL: func.func @glue_only
// CHECK-NOT:   passthrough
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    return
func.func @glue_only(%x: memref<8xf32>, %out: memref<8xf32>) {
  memref.copy %x, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// A function whose only loop nest is the same as an earlier function's
// calls that function's dispatch, and is glue all the same.
// CHECK-LABEL: func.func private @first_dispatch_0(
// CHECK-NOT:   func.func private @second_dispatch_
// CHECK-LABEL: func.func @first(
// CHECK-SAME:      passthrough = ["noinline", "optnone"]
// CHECK-LABEL: func.func @second(
// CHECK-SAME:      passthrough = ["noinline", "optnone"]
// CHECK:         call @first_dispatch_0(%arg0)
func.func @first(%x: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%x : memref<8xf32>)
  return
}
func.func @second(%x: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%x : memref<8xf32>)
  return
}
