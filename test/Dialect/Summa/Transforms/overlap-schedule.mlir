// summa-overlap on the SUMMA loop of one product, as summa-compile builds
// it (partition, expand, bufferize, deallocate), for q = 1, 2 and 3.
// RUN: summa-opt %s --summa-assign-layouts="grid=1,1,2" --summa-partition --summa-expand-matmul --canonicalize --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs=true modify-public-functions=true" --buffer-deallocation-pipeline --convert-bufferization-to-memref --canonicalize --summa-overlap --canonicalize | FileCheck %s --check-prefix=Q1
// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,1" --summa-partition --summa-expand-matmul --canonicalize --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs=true modify-public-functions=true" --buffer-deallocation-pipeline --convert-bufferization-to-memref --canonicalize --summa-overlap --canonicalize | FileCheck %s --check-prefix=Q2
// RUN: summa-opt %s --summa-assign-layouts="grid=3,3,1" --summa-partition --summa-expand-matmul --canonicalize --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs=true modify-public-functions=true" --buffer-deallocation-pipeline --convert-bufferization-to-memref --canonicalize --summa-overlap --canonicalize | FileCheck %s --check-prefix=Q3

func.func @mm(%a: tensor<36x36xf32>, %b: tensor<36x36xf32>) -> tensor<36x36xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<36x36xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<36x36xf32>) -> tensor<36x36xf32>
  %c = linalg.matmul ins(%a, %b : tensor<36x36xf32>, tensor<36x36xf32>) outs(%z : tensor<36x36xf32>) -> tensor<36x36xf32>
  return %c : tensor<36x36xf32>
}

// q = 1: one local GEMM, no collective at all, nothing to overlap.
// Q1-LABEL: func.func @mm
// Q1-NOT: summa.{{async_|broadcast|reduce|all_|wait}}
// Q1: linalg.matmul ins(%arg0, %arg1 : memref<18x36xf32>, memref<36x36xf32>) outs(%arg2 : memref<18x36xf32>)
// Q1-NOT: summa.{{async_|broadcast|reduce|all_|wait}}
// Q1: return

// q = 2: both steps' panels are started before step 0's GEMM, into two
// buffers per operand; each GEMM waits for its own panels only.
// Q2-LABEL: func.func @mm
// Q2-SAME: (%[[A:.*]]: memref<18x18xf32> {{.*}}, %[[B:.*]]: memref<18x18xf32> {{.*}}, %{{.*}}: memref<18x18xf32>
// Q2-DAG: %[[C0:.*]] = arith.constant 0 : index
// Q2-DAG: %[[C1:.*]] = arith.constant 1 : index
// Q2: %[[ACC:.*]] = memref.alloc()
// Q2: %[[A0:.*]] = memref.alloc()
// Q2: %[[A1:.*]] = memref.alloc()
// Q2: %[[B0:.*]] = memref.alloc()
// Q2: %[[B1:.*]] = memref.alloc()
// Q2: memref.copy %[[A]], %[[A0]]
// Q2: %[[TA0:.*]] = summa.async_broadcast %[[A0]] on @grid axes = [col] root = %[[C0]]
// Q2: memref.copy %[[B]], %[[B0]]
// Q2: %[[TB0:.*]] = summa.async_broadcast %[[B0]] on @grid axes = [row] root = %[[C0]]
// Q2: memref.copy %[[A]], %[[A1]]
// Q2: %[[TA1:.*]] = summa.async_broadcast %[[A1]] on @grid axes = [col] root = %[[C1]]
// Q2: memref.copy %[[B]], %[[B1]]
// Q2: %[[TB1:.*]] = summa.async_broadcast %[[B1]] on @grid axes = [row] root = %[[C1]]
// Q2-NEXT: summa.wait %[[TA0]]
// Q2-NEXT: summa.wait %[[TB0]]
// Q2-NEXT: linalg.matmul ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[ACC]] :
// Q2-NEXT: summa.wait %[[TA1]]
// Q2-NEXT: summa.wait %[[TB1]]
// Q2-NEXT: linalg.matmul ins(%[[A1]], %[[B1]] : {{.*}}) outs(%[[ACC]] :
// Q2-NOT: summa.broadcast
// Q2-NOT: scf.for
// Q2-DAG: memref.dealloc %[[A0]]
// Q2-DAG: memref.dealloc %[[A1]]
// Q2-DAG: memref.dealloc %[[B0]]
// Q2-DAG: memref.dealloc %[[B1]]
// Q2: return

// q = 3: prologue (step 0's panels), a loop over steps 0 and 1 that starts
// step t+1's panels into the other buffers, waits for step t's (carried as
// tokens) and multiplies, then the last step with no prefetch.
// Q3-LABEL: func.func @mm
// Q3-SAME: (%[[A:.*]]: memref<12x12xf32> {{.*}}, %[[B:.*]]: memref<12x12xf32> {{.*}}, %{{.*}}: memref<12x12xf32>
// Q3-DAG: %[[C0:.*]] = arith.constant 0 : index
// Q3-DAG: %[[C1:.*]] = arith.constant 1 : index
// Q3-DAG: %[[C2:.*]] = arith.constant 2 : index
// Q3: %[[ACC:.*]] = memref.alloc()
// Q3: %[[A0:.*]] = memref.alloc()
// Q3: %[[A1:.*]] = memref.alloc()
// Q3: %[[B0:.*]] = memref.alloc()
// Q3: %[[B1:.*]] = memref.alloc()
// Q3: memref.copy %[[A]], %[[A0]]
// Q3: %[[TA:.*]] = summa.async_broadcast %[[A0]] on @grid axes = [col] root = %[[C0]]
// Q3: memref.copy %[[B]], %[[B0]]
// Q3: %[[TB:.*]] = summa.async_broadcast %[[B0]] on @grid axes = [row] root = %[[C0]]
// Q3: %[[LOOP:.*]]:2 = scf.for %[[T:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[WA:.*]] = %[[TA]], %[[WB:.*]] = %[[TB]]) -> (!summa.token, !summa.token) {
// Q3: %[[EVEN:.*]] = arith.cmpi eq
// Q3: %[[CA:.*]] = arith.select %[[EVEN]], %[[A0]], %[[A1]]
// Q3: %[[CB:.*]] = arith.select %[[EVEN]], %[[B0]], %[[B1]]
// Q3: %[[NA:.*]] = arith.select %[[EVEN]], %[[A1]], %[[A0]]
// Q3: %[[NB:.*]] = arith.select %[[EVEN]], %[[B1]], %[[B0]]
// Q3: %[[NEXT:.*]] = arith.addi %[[T]], %[[C1]]
// Q3: memref.copy %[[A]], %[[NA]]
// Q3: %[[NTA:.*]] = summa.async_broadcast %[[NA]] on @grid axes = [col] root = %[[NEXT]]
// Q3: memref.copy %[[B]], %[[NB]]
// Q3: %[[NTB:.*]] = summa.async_broadcast %[[NB]] on @grid axes = [row] root = %[[NEXT]]
// Q3: summa.wait %[[WA]]
// Q3: summa.wait %[[WB]]
// Q3: linalg.matmul ins(%[[CA]], %[[CB]] : {{.*}}) outs(%[[ACC]] :
// Q3: scf.yield %[[NTA]], %[[NTB]] : !summa.token, !summa.token
// Q3: }
// Q3-NEXT: summa.wait %[[LOOP]]#0
// Q3-NEXT: summa.wait %[[LOOP]]#1
// Q3-NEXT: linalg.matmul ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[ACC]] :
// Q3-NOT: summa.broadcast
// Q3: return
