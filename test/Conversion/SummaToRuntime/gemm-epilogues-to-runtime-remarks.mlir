// RUN: summa-opt %s -convert-gemm-epilogues-to-runtime=remarks -split-input-file -verify-diagnostics | FileCheck %s

// Each matmul says what went into its call, or why nothing did; those it
// leaves stay as they were (convert-summa-to-runtime lowers them).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @taken(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  // expected-remark @below {{library: linalg.matmul with bias (the whole epilogue) in one runtime GEMM (summaRtMatmulEpilogue}}
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// A GEMM that accumulates into its C (a SUMMA step, or C += A·B).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @accumulates
// CHECK: linalg.matmul
// CHECK: linalg.generic
func.func @accumulates(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>, %out: memref<4x8xf32>) {
  %c = memref.alloc() : memref<4x8xf32>
  memref.copy %out, %c : memref<4x8xf32> to memref<4x8xf32>
  // expected-remark @below {{GEMM epilogue not fused: it accumulates into a C that is not zero-filled before it}}
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// C read by two ops: the sum cannot go into C.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @two_readers(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                       %out: memref<4x8xf32>, %copy: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  // expected-remark @below {{GEMM epilogue not fused: C is read by another op than its epilogue}}
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x8xf32>) outs(%copy : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// An epilogue that scales C first: nothing of it is a bias or residual.
#id = affine_map<(i, j) -> (i, j)>
func.func @scaled(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  // expected-remark @below {{GEMM epilogue not fused: its epilogue does not begin with a bias or residual sum}}
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %two : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// The bias is written between the GEMM and its epilogue: at the GEMM it
// is not yet what the epilogue adds.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @bias_written_between(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                                %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  // expected-remark @below {{GEMM epilogue not fused: an op between it and its epilogue touches the epilogue's buffers}}
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.fill ins(%zero : f32) outs(%bias : memref<8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// A reduction of C is not an elementwise epilogue.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @row_sums(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  // expected-remark @below {{GEMM epilogue not fused: its epilogue is not an elementwise op of C into a buffer of C's shape}}
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%c : memref<4x8xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}

// -----

// C is the caller's buffer and the epilogue writes another: C must still
// hold the product afterwards.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @c_outlives(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                      %c: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  // expected-remark @below {{GEMM epilogue not fused: C outlives its epilogue}}
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A loop in which C is touched by another op than the GEMM: its initial
// value is not all that the epilogue reads of it.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @loop_scales_c(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>,
                         %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
  scf.for %step = %c0 to %c2 step %c1 {
    // expected-remark @below {{GEMM epilogue not fused: it accumulates into a C that is not zero-filled before it (or before its loop)}}
    linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
    linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%c : memref<4x8xf32>) {
    ^bb0(%o: f32):
      %h = arith.mulf %o, %o : f32
      linalg.yield %h : f32
    }
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x8xf32>, memref<8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x8xf32>
  return
}
