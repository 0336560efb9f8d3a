// The local term: the bytes every linalg op but the GEMMs reads and writes
// on its local tiles, divided by the memory rate. A linear layer with a
// bias and a ReLU, [64, 32] x [32, 16] in f32, on one rank: the
// accumulator's fill writes 4096 B; the bias add reads the product
// (4096 B) and the bias (64 B) and writes 4096 B; the ReLU reads and writes
// 4096 B: 20544 B, 20544 / 3.36e12 s at H200's default rate. On [1,1,2]
// the tokens are split: 2048 + (2048 + 64 + 2048) + 4096 = 10304 B.
// RUN: summa-plan %s --ranks 1 --json | FileCheck %s --check-prefix=ONE
// RUN: summa-plan %s --ranks 2 --grid 1,1,2 --json | FileCheck %s --check-prefix=TWO
// RUN: summa-plan %s --ranks 1 | FileCheck %s --check-prefix=TABLE
// --local-gbps sets the rate: 20544 B at 1 GB/s is 20.54 us.
// RUN: summa-plan %s --ranks 1 --local-gbps 1 | FileCheck %s --check-prefix=RATE
// RUN: not summa-plan %s --ranks 1 --local-gbps 0 2>&1 | FileCheck %s --check-prefix=BADRATE

// ONE: "local_bytes_per_s": 3360000000000
// ONE: "name": "[1,1,1]"
// ONE: "local_bytes": 20544
// ONE: "local": 6.114285714285{{[0-9]+}}e-09
// TWO: "name": "[1,1,2]"
// TWO: "local_bytes": 10304
// TWO: "name": "DP"
// TWO: "local_bytes": 10304
// TABLE: strategy   status        payload        wire   GEMMs      memory        comm        GEMM       local       total
// TABLE-NEXT: * [1,1,1]    counted           0 B         0 B       1
// TABLE-SAME: 6.11 ns
// TABLE: [1,1,1]: memory per rank: {{.*}}; 1 GEMMs, 65.54 KFLOP; local loop nests 20.06 KiB
// RATE: local loop nests 1 GB/s
// RATE: * [1,1,1]    counted {{.*}} 20.54 us
// BADRATE: summa-plan: error: --local-gbps must be positive

#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @linear(%x: tensor<64x32xf32> {summa.role = "activation"},
                  %w: tensor<32x16xf32>, %b: tensor<16xf32>)
    -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x32xf32>, tensor<32x16xf32>)
                      outs(%acc : tensor<64x16xf32>) -> tensor<64x16xf32>
  %e1 = tensor.empty() : tensor<64x16xf32>
  %biased = linalg.generic {indexing_maps = [#map, #bias, #map],
                            iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<64x16xf32>, tensor<16xf32>) outs(%e1 : tensor<64x16xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %e2 = tensor.empty() : tensor<64x16xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map],
                          iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<64x16xf32>) outs(%e2 : tensor<64x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x16xf32>
  return %relu : tensor<64x16xf32>
}
