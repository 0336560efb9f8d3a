// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --emit=spmd-mlir -o %t.spmd.mlir
// RUN: summa-opt %t.spmd.mlir --summa-lower-to-cuda="format=isa chip=sm_90" | FileCheck %s
// RUN: summa-opt %t.spmd.mlir --summa-lower-to-cuda="format=isa block-size=128" | FileCheck %s --check-prefix=BLOCK
// RUN: summa-opt %summa_src/examples/mlp_loss.mlir --summa-lower-to-cuda="format=isa" | FileCheck %s --check-prefix=LOSS
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 --emit=spmd-mlir -o %t.layer.mlir
// RUN: summa-opt %t.layer.mlir --summa-lower-to-cuda="format=isa chip=sm_90" | FileCheck %s --check-prefix=NODIV --implicit-check-not=div.s64 --implicit-check-not=div.u64 --implicit-check-not=rem.s64 --implicit-check-not=rem.u64

// --target=cuda's lowering (no CUDA toolkit needed with format=isa, PTX):
// the host function allocates through the runtime's device pool, calls the
// runtime for collectives and GEMMs, and launches a kernel for every other
// local op; it loads and stores nothing itself. Each kernel is a PTX binary
// for the chip asked for.
// CHECK-NOT: memref.
// CHECK-NOT: linalg.
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-LABEL: llvm.func @mlp(
// CHECK-NOT: llvm.load
// CHECK-NOT: llvm.store
// The first SUMMA loop: the accumulator is initialised by a kernel (to the
// bias, convert-gemm-epilogues-to-runtime), each step copies its panels
// with kernels, broadcasts them and multiplies.
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: gpu.launch_func @summa_kernels::@mlp_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64
// CHECK: gpu.launch_func @summa_kernels::@mlp_kernel_0
// CHECK: llvm.call @summaRtBroadcast
// CHECK: gpu.launch_func @summa_kernels::@mlp_kernel_1
// CHECK: llvm.call @summaRtBroadcast
// CHECK: llvm.call @summaRtMatmul
// CHECK: llvm.call @_mlir_memref_to_llvm_free
// CHECK-NOT: llvm.load
// CHECK-NOT: llvm.store
// CHECK: llvm.return
// All seven kernels in one binary (one ptxas run).
// CHECK: gpu.binary @summa_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}assembly = "{{.*}}.target sm_90
// CHECK-SAME: .entry mlp_kernel(
// CHECK-SAME: .entry mlp_kernel_5(
// CHECK-NOT: gpu.binary

// The kernels' threads per block.
// BLOCK: %[[THREADS:.*]] = llvm.mlir.constant(128 : index) : i64
// BLOCK: gpu.launch_func @summa_kernels::@mlp_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[THREADS]], %{{.*}}, %{{.*}})

// A loss reduces to a 0-d tensor: that reduction becomes a one-thread
// kernel, not a host loop.
// LOSS-LABEL: llvm.func @mlp_loss(
// LOSS-NOT: llvm.load
// LOSS-NOT: llvm.store
// LOSS: llvm.return

// The index computations' constants are sunk into the kernels before
// outlining (gpu-launch-sink-index-computations): ptxas sees every divisor,
// and no kernel of a GPT layer divides 64-bit integers per element (52
// div.s64 in its PTX without the sinking).
// NODIV: llvm.func @gpt_layer(
// NODIV: gpu.binary

// Launch sites of the GPT layer's host function: elementwise chains are
// fused into one kernel each (summa-fuse-elementwise; 50 sites without),
// and the bias and residual sums are the initial value of the SUMMA GEMMs'
// C (convert-gemm-epilogues-to-runtime: 43 sites without, 5 epilogues
// gone). On [1,1,1], where each GEMM overwrites its C, all six epilogues,
// GeLU's included, are cuBLASLt's (summaRtMatmulEpilogue): 21 sites.
// RUN: summa-opt %t.layer.mlir --summa-lower-to-cuda="format=isa chip=sm_90" | FileCheck %s --check-prefix=LAUNCH
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=1,1,1 --emit=spmd-mlir -o %t.layer111.mlir
// RUN: summa-opt %t.layer111.mlir --summa-lower-to-cuda="format=isa chip=sm_90" -o %t.layer111.llvm.mlir
// RUN: FileCheck %s --check-prefix=LAUNCH111 < %t.layer111.llvm.mlir
// RUN: FileCheck %s --check-prefix=EPILOGUE111 < %t.layer111.llvm.mlir
// LAUNCH-LABEL: llvm.func @gpt_layer(
// LAUNCH-COUNT-38: gpu.launch_func
// LAUNCH-NOT: gpu.launch_func
// LAUNCH: llvm.return
// LAUNCH111-LABEL: llvm.func @gpt_layer(
// LAUNCH111-COUNT-21: gpu.launch_func
// LAUNCH111-NOT: gpu.launch_func
// LAUNCH111: llvm.return
// EPILOGUE111-LABEL: llvm.func @gpt_layer(
// EPILOGUE111-COUNT-6: llvm.call @summaRtMatmulEpilogue(
// EPILOGUE111-NOT: llvm.call @summaRtMatmul
// EPILOGUE111: llvm.return

// LayerNorm's and softmax's rows are block reductions (summa-block-reductions,
// summa-lower-block-reductions): in a GPT layer whose rows are long enough
// (hidden 128 on [2,2,1]: 64 columns per rank; 64 keys), the two mean and
// variance reductions of each LayerNorm and softmax's maximum and sum are
// one block per row with warp shuffles — six kernels, and no other (the
// binary's PTX split at each kernel's entry, one kernel a line).
// RUN: %python %summa_src/examples/generate.py layer --batch 2 --seq 64 --hidden 128 --heads 2 --ffn 256 -o %t.wide.mlir
// RUN: summa-compile %t.wide.mlir --grid=2,2,1 --emit=spmd-mlir -o %t.wide.spmd.mlir
// RUN: summa-opt %t.wide.spmd.mlir --summa-lower-to-cuda="format=isa chip=sm_90" | sed 's/[.]visible [.]entry/\n.entry/g' | FileCheck %s --check-prefix=ROWS
// ROWS-LABEL: llvm.func @gpt_layer(
// ROWS: gpu.binary @summa_kernels
// ROWS-COUNT-6: .entry gpt_layer_kernel_{{[0-9]+}}({{.*}}shfl.sync.bfly
// ROWS-NOT: shfl.sync
