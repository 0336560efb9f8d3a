// RUN: summa-opt %s -convert-gemm-epilogues-to-runtime -split-input-file | FileCheck %s
// RUN: summa-opt %s -convert-gemm-epilogues-to-runtime=gelu -split-input-file | FileCheck %s --check-prefix=GELU

// A bias epilogue: the GEMM writes the epilogue's output with the bias
// added (a null residual, activation 0); the zero fill, the epilogue and C
// go. The output, allocated after the GEMM, is allocated before it; the
// call stays where the GEMM was, before A is freed.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @bias
// CHECK-SAME: (%[[B:.*]]: memref<16x8xf32>, %[[BIAS:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK: %[[A:.*]] = memref.alloc() {{.*}} : memref<4x16xf32>
// CHECK-NEXT: %[[D:.*]] = memref.alloc() {{.*}} : memref<4x8xf32>
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[AP:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %[[BP:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK-DAG: %[[NULL:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[BIASP:.*]] = memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK-DAG: %[[DP:.*]] = memref.extract_aligned_pointer_as_index %[[D]]
// CHECK: call @summaRtMatmulEpilogue(%{{.*}}, %[[AP]], %{{.*}}, %{{.*}}, %[[BP]], %{{.*}}, %{{.*}}, %[[NULL]], %{{.*}}, %{{.*}}, %[[BIASP]], %{{.*}}, %[[DP]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ACT:.*]])
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[D]], %[[OUT]]
func.func @bias(%b: memref<16x8xf32>, %bias: memref<8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  memref.dealloc %a : memref<4x16xf32>
  %d = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%d : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  memref.copy %d, %out : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %d : memref<4x8xf32>
  return
}

// -----

// Bias and residual, in either order (R + (C + bias)), Aᵀ·B: the residual
// is the call's R, transA 1. The epilogue writes a function argument.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func.func @bias_residual
// CHECK-SAME: (%[[A:.*]]: memref<16x4xf32>, %[[B:.*]]: memref<16x8xf32>, %[[BIAS:.*]]: memref<8xf32>, %[[R:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK-NOT: memref.alloc
// CHECK-DAG: %[[RP:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// CHECK-DAG: %[[BIASP:.*]] = memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK-DAG: %[[OUTP:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// The i32 arguments: dtype 0 (f32), transA 1, transB 0, activation 0.
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 0 : i32
// CHECK: call @summaRtMatmulEpilogue(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[RP]], %{{.*}}, %{{.*}}, %[[BIASP]], %{{.*}}, %[[OUTP]],
// CHECK-NOT: linalg
// CHECK: return
func.func @bias_residual(%a: memref<16x4xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                         %r: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  linalg.matmul indexing_maps = [#at, #b, #c]
      ins(%a, %b : memref<16x4xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r, %c, %bias : memref<4x8xf32>, memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %s = arith.addf %y, %z : f32
    %t = arith.addf %x, %s : f32
    linalg.yield %t : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// Bias then GeLU (tanh form, as GPT-2 writes it). With `gelu` (the GPU)
// all of it is the call's (activation 1); without (the CPU) the call adds
// the bias into C and the epilogue computes GeLU from C alone.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @bias_gelu
// CHECK-SAME: (%[[A:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<16x8xf32>, %[[BIAS:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK: %[[C:.*]] = memref.alloc()
// CHECK-NOT: linalg.fill
// CHECK: %[[CP:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
// The i32 arguments: dtype, transA, transB, activation 0.
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: arith.constant 0 : i32
// CHECK: call @summaRtMatmulEpilogue(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CP]],
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[C]] : memref<4x8xf32>) outs(%[[OUT]] : memref<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NOT: arith.addf %[[X]]
// CHECK: arith.mulf %[[X]], %[[X]]
// CHECK: math.tanh
// GELU-LABEL: func.func @bias_gelu
// GELU-NOT: memref.alloc
// GELU: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 1 : i32
// GELU: call @summaRtMatmulEpilogue(
// GELU-NOT: linalg
// GELU: return
func.func @bias_gelu(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                     %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%in: f32, %bi: f32, %o: f32):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 4.471500e-02 : f32
    %x = arith.addf %in, %bi : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %kx3 = arith.mulf %k1, %x3 : f32
    %inner = arith.addf %x, %kx3 : f32
    %scaled = arith.mulf %k0, %inner : f32
    %t = math.tanh %scaled : f32
    %onept = arith.addf %one, %t : f32
    %hx = arith.mulf %half, %x : f32
    %r = arith.mulf %hx, %onept : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// GeLU's erf form is not the tanh form cuBLASLt computes: even with
// `gelu` only the bias goes into the call.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// GELU-LABEL: func.func @bias_erf_gelu
// GELU: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU: call @summaRtMatmulEpilogue(
// GELU-NEXT: linalg.generic
// GELU: math.erf
func.func @bias_erf_gelu(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                         %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%in: f32, %bi: f32, %o: f32):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %x = arith.addf %in, %bi : f32
    %s = arith.mulf %x, %rsqrt2 : f32
    %e = math.erf %s : f32
    %onept = arith.addf %one, %e : f32
    %hx = arith.mulf %half, %x : f32
    %r = arith.mulf %hx, %onept : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// In bf16 and f16 bodies the constants are rounded (bf16's sqrt(2/pi) is
// 0.796875, 3.4e-4 off GeLU's tanh form at worst), so the tanh form is
// recognised with a tolerance; GeLU's erf form, at most 4.7e-4 from the tanh
// form, is within bf16's tolerance too, but nearer to itself than to the tanh
// form: it stays a generic. In bf16 (dtype 3) and f16 (dtype 2).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// GELU-LABEL: func.func @bias_gelu_bf16
// GELU: arith.constant 3 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 1 : i32
// GELU: call @summaRtMatmulEpilogue(
// GELU-NOT: linalg
// GELU: return
func.func @bias_gelu_bf16(%a: memref<4x16xbf16>, %b: memref<16x8xbf16>, %bias: memref<8xbf16>,
                          %out: memref<4x8xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %c = memref.alloc() : memref<4x8xbf16>
  linalg.fill ins(%zero : bf16) outs(%c : memref<4x8xbf16>)
  linalg.matmul ins(%a, %b : memref<4x16xbf16>, memref<16x8xbf16>) outs(%c : memref<4x8xbf16>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xbf16>, memref<8xbf16>) outs(%out : memref<4x8xbf16>) {
  ^bb0(%in: bf16, %bi: bf16, %o: bf16):
    %half = arith.constant 5.000000e-01 : bf16
    %one = arith.constant 1.000000e+00 : bf16
    %k0 = arith.constant 0.797884583 : bf16
    %k1 = arith.constant 4.471500e-02 : bf16
    %x = arith.addf %in, %bi : bf16
    %x2 = arith.mulf %x, %x : bf16
    %x3 = arith.mulf %x2, %x : bf16
    %kx3 = arith.mulf %k1, %x3 : bf16
    %inner = arith.addf %x, %kx3 : bf16
    %scaled = arith.mulf %k0, %inner : bf16
    %t = math.tanh %scaled : bf16
    %onept = arith.addf %one, %t : bf16
    %hx = arith.mulf %half, %x : bf16
    %r = arith.mulf %hx, %onept : bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %c : memref<4x8xbf16>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// GELU-LABEL: func.func @bias_erf_gelu_bf16
// GELU: arith.constant 3 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU: call @summaRtMatmulEpilogue(
// GELU-NEXT: linalg.generic
// GELU: math.erf
func.func @bias_erf_gelu_bf16(%a: memref<4x16xbf16>, %b: memref<16x8xbf16>, %bias: memref<8xbf16>,
                              %out: memref<4x8xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %c = memref.alloc() : memref<4x8xbf16>
  linalg.fill ins(%zero : bf16) outs(%c : memref<4x8xbf16>)
  linalg.matmul ins(%a, %b : memref<4x16xbf16>, memref<16x8xbf16>) outs(%c : memref<4x8xbf16>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xbf16>, memref<8xbf16>) outs(%out : memref<4x8xbf16>) {
  ^bb0(%in: bf16, %bi: bf16, %o: bf16):
    %half = arith.constant 5.000000e-01 : bf16
    %one = arith.constant 1.000000e+00 : bf16
    %rsqrt2 = arith.constant 0.707106769 : bf16
    %x = arith.addf %in, %bi : bf16
    %s = arith.mulf %x, %rsqrt2 : bf16
    %e = math.erf %s : bf16
    %onept = arith.addf %one, %e : bf16
    %hx = arith.mulf %half, %x : bf16
    %r = arith.mulf %hx, %onept : bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %c : memref<4x8xbf16>
  return
}

// -----

// f16 computing in f32 (as exports of 16-bit models do): the erf form
// stays a generic there too.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// GELU-LABEL: func.func @bias_erf_gelu_f16
// GELU: arith.constant 2 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU-NEXT: arith.constant 0 : i32
// GELU: call @summaRtMatmulEpilogue(
// GELU-NEXT: linalg.generic
// GELU: math.erf
func.func @bias_erf_gelu_f16(%a: memref<4x16xf16>, %b: memref<16x8xf16>, %bias: memref<8xf16>,
                             %out: memref<4x8xf16>) {
  %zero = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<4x8xf16>
  linalg.fill ins(%zero : f16) outs(%c : memref<4x8xf16>)
  linalg.matmul ins(%a, %b : memref<4x16xf16>, memref<16x8xf16>) outs(%c : memref<4x8xf16>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf16>, memref<8xf16>) outs(%out : memref<4x8xf16>) {
  ^bb0(%in: f16, %bi: f16, %o: f16):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %xh = arith.addf %in, %bi : f16
    %x = arith.extf %xh : f16 to f32
    %s = arith.mulf %x, %rsqrt2 : f32
    %e = math.erf %s : f32
    %onept = arith.addf %one, %e : f32
    %hx = arith.mulf %half, %x : f32
    %r = arith.mulf %hx, %onept : f32
    %rh = arith.truncf %r : f32 to f16
    linalg.yield %rh : f16
  }
  memref.dealloc %c : memref<4x8xf16>
  return
}

// -----

// The epilogue writes back into C, here the function's result (as
// bufferization leaves bias + residual on an output): the call writes C,
// with the residual and the bias; what reads C afterwards reads the same.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: (%[[A:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<16x8xf32>, %[[BIAS:.*]]: memref<8xf32>, %[[R:.*]]: memref<4x8xf32>, %[[C:.*]]: memref<4x8xf32>, %[[COPY:.*]]: memref<4x8xf32>)
// CHECK-DAG: %[[CP:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK-DAG: %[[RP:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// CHECK: call @summaRtMatmulEpilogue(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[RP]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CP]],
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[C]], %[[COPY]]
func.func @in_place(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                    %r: memref<4x8xf32>, %c: memref<4x8xf32>, %copy: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias, %r : memref<4x8xf32>, memref<8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    linalg.yield %t : f32
  }
  memref.copy %c, %copy : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// A GEMM that accumulates over SUMMA steps (a loop) from a zero fill: the
// epilogue's sums become C's initial value in place of the fill, and the
// epilogue, now a copy of C onto itself, goes. Each step still accumulates
// (convert-summa-to-runtime: accumulate 1).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @summa_steps
// CHECK-SAME: (%[[A:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<16x8xf32>, %[[BIAS:.*]]: memref<8xf32>, %[[R:.*]]: memref<4x8xf32>, %[[C:.*]]: memref<4x8xf32>)
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {{.*}} ins(%[[BIAS]], %[[R]] : memref<8xf32>, memref<4x8xf32>) outs(%[[C]] : memref<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: scf.for
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[B]] : memref<4x16xf32>, memref<16x8xf32>) outs(%[[C]] : memref<4x8xf32>)
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @summa_steps(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                       %r: memref<4x8xf32>, %c: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  scf.for %step = %c0 to %c2 step %c1 {
    linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  }
  linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias, %r : memref<4x8xf32>, memref<8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// The same with GeLU after the bias (here with `gelu`, as on the GPU):
// GeLU cannot go before the last step's sum, so only the bias becomes the
// initial value; the epilogue computes GeLU from C alone.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// GELU-LABEL: func.func @summa_steps_gelu
// GELU-NOT: linalg.fill
// GELU: linalg.generic {{.*}} ins(%{{.*}} : memref<8xf32>) outs(%[[C:.*]] : memref<4x8xf32>)
// GELU: scf.for
// GELU: linalg.generic {{.*}} ins(%[[C]] : memref<4x8xf32>) outs(%{{.*}} : memref<4x8xf32>)
// GELU: math.tanh
func.func @summa_steps_gelu(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                            %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  scf.for %step = %c0 to %c2 step %c1 {
    linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%in: f32, %bi: f32, %o: f32):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 4.471500e-02 : f32
    %three = arith.constant 3.000000e+00 : f32
    %x = arith.addf %in, %bi : f32
    %x3 = math.powf %x, %three : f32
    %kx3 = arith.mulf %k1, %x3 : f32
    %inner = arith.addf %x, %kx3 : f32
    %scaled = arith.mulf %k0, %inner : f32
    %t = math.tanh %scaled : f32
    %onept = arith.addf %one, %t : f32
    %hx = arith.mulf %half, %x : f32
    %r = arith.mulf %hx, %onept : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// Over a loop, an epilogue that was only the bias, into a buffer of its
// own (allocated after the loop): the steps accumulate into that buffer,
// allocated before its initial value; C and the epilogue go.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @summa_steps_into_output
// CHECK-SAME: (%[[A:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<16x8xf32>, %[[BIAS:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK: %[[D:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[BIAS]] : memref<8xf32>) outs(%[[D]] : memref<4x8xf32>)
// CHECK: scf.for
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[B]] : memref<4x16xf32>, memref<16x8xf32>) outs(%[[D]] : memref<4x8xf32>)
// CHECK-NEXT: }
// CHECK-NEXT: memref.copy %[[D]], %[[OUT]]
// CHECK-NEXT: memref.dealloc %[[D]]
// CHECK-NEXT: return
func.func @summa_steps_into_output(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                                   %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  scf.for %step = %c0 to %c2 step %c1 {
    linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  }
  %d = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%d : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  memref.copy %d, %out : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %d : memref<4x8xf32>
  return
}
