// RUN: summa-opt %summa_src/examples/mlp.mlir --summa-pipeline="grid=2,2,2" | FileCheck %s
// RUN: summa-opt %summa_src/examples/mlp.mlir --summa-pipeline="grid=1,1,4" | FileCheck %s --check-prefix=DP
// RUN: summa-opt %summa_src/examples/mlp.mlir --summa-lower-to-llvm | FileCheck %s --check-prefix=REF

// The whole pipeline ends in the LLVM dialect, nothing of summa left. The
// local ops and the two SUMMA loops are dispatch functions of their own
// (fill, loop, bias + GeLU fused into one loop nest, fill, loop, epilogue),
// each loop with a row and a
// column broadcast and one local GEMM per step; the entry is glue that
// calls them, compiled without optimisation.
// CHECK-NOT: summa.
// CHECK-DAG: llvm.func @summaRtBroadcast(i64, i64, i64, i32, i32, i64)
// CHECK-DAG: llvm.func @summaRtMatmul(
// CHECK-LABEL: llvm.func internal @mlp_dispatch_1(
// CHECK-COUNT-2: llvm.call @summaRtBroadcast
// CHECK: llvm.call @summaRtMatmul
// CHECK-NOT: llvm.call @summaRt
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal @mlp_dispatch_4(
// CHECK-COUNT-2: llvm.call @summaRtBroadcast
// CHECK: llvm.call @summaRtMatmul
// CHECK-NOT: llvm.call @summaRt
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @mlp(
// CHECK-SAME: passthrough = ["noinline", "optnone"]
// CHECK-NOT: llvm.call @summaRt
// CHECK: llvm.call @mlp_dispatch_1(
// CHECK-NOT: llvm.call @summaRt
// CHECK: llvm.call @mlp_dispatch_4(
// CHECK-NOT: llvm.call @summaRt
// CHECK: llvm.return

// Pure data parallelism ([1,1,4]) has no broadcast at all, and each GEMM
// overwrites its C: both take their epilogues (bias + GeLU on the GPU, the
// bias on the CPU; bias + residual) into one runtime call.
// DP-NOT: summaRtBroadcast
// DP-COUNT-2: llvm.call @summaRtMatmulEpilogue(
// DP-NOT: summaRtBroadcast

// The unpartitioned program lowered without the partitioning calls only
// the local GEMMs (with their epilogues); with `plain` (--check's reference) not even that: the
// matmuls are loops (PLAIN below).
// REF-LABEL: llvm.func @mlp(
// REF-NOT: summaRtBroadcast
// REF-COUNT-2: llvm.call @summaRtMatmulEpilogue(
// REF-NOT: summaRtBroadcast

// The CPU fast path: attention's two batched products (Q·Kᵀ and P·V) become
// summaRtMatmulBatched calls (OpenBLAS), and GeLU's tanh and softmax's exp
// become arithmetic that LLVM vectorises: no tanh or exp call is left. The
// plain lowering of the --check reference keeps both as loops and libm.
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-pipeline="grid=2,2,1" | FileCheck %s --check-prefix=FAST
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-pipeline="grid=2,2,1" | FileCheck %s --check-prefix=NOLIBM
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-lower-to-llvm="plain" | FileCheck %s --check-prefix=PLAIN
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-lower-to-llvm="plain" | not grep summaRt
// FAST-COUNT-2: llvm.call @summaRtMatmulBatched(
// FAST-NOT: llvm.call @summaRtMatmulBatched(
// FAST: llvm.func @gpt_layer(
// NOLIBM-NOT: llvm.intr.tanh
// NOLIBM-NOT: llvm.intr.exp
// PLAIN-DAG: llvm.intr.exp
// PLAIN-DAG: llvm.intr.tanh
