// --machine FILE: predictions from a machine file (summa-plan --calibrate
// writes one) instead of the H200 defaults; a file that is missing or
// malformed is one error line naming it (exit status 1), never a crash.
// RUN: rm -rf %t && split-file %s %t
// RUN: summa-plan %t/linear.mlir --ranks 1 | FileCheck %s --check-prefix=H200
// RUN: summa-plan %t/linear.mlir --ranks 1 --machine %t/good.json | FileCheck %s --check-prefix=ONE
// RUN: summa-plan %t/linear.mlir --ranks 4 --grid 1,1,4 --machine %t/good.json | FileCheck %s --check-prefix=FOUR
// RUN: summa-plan %t/linear.mlir --ranks 1 --machine %t/good.json --json | FileCheck %s --check-prefix=JSON
// RUN: summa-plan %t/skinny.mlir --ranks 1 --machine %t/good.json | FileCheck %s --check-prefix=SKINNY
// RUN: summa-plan %t/skinny.mlir --ranks 1 | FileCheck %s --check-prefix=SKINNY-H200
// RUN: summa-plan %summa_src/examples/mlp_train_step.mlir --ranks 2 --grid 1,1,2 --machine %t/good.json | FileCheck %s --check-prefix=COLL
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/notjson.json 2>&1 | FileCheck %s --check-prefix=NOTJSON
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/format.json 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/version.json 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/field.json 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/negative.json 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/op.json 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/nolocal.json 2>&1 | FileCheck %s --check-prefix=NOLOCAL
// RUN: not summa-plan %t/linear.mlir --ranks 1 --machine %t/good.json --calibrate 2>&1 | FileCheck %s --check-prefix=BOTH

// A [64, 32] x [32, 16] linear layer with a bias and a ReLU, then the sum
// of each row, in f32: 65536 GEMM flops; elementwise loop nests (the
// accumulators' fills, the bias add, the ReLU) moving 4096, 256, 8256 and
// 8192 bytes, and a reduction of 1024 iterations moving 4608 bytes (the
// ReLU's result, its accumulator read and written). At H200's defaults
// the loops are bound by memory (25408 B at 3360 GB/s). On the machine of
// good.json (1 GFLOP/s; 1 GB/s and 1e8 iterations/s on one rank) the
// reduction takes its slower bound, 1024 iterations = 10.24 us, the others
// their bytes: 20.80 + 10.24 us.
// H200: * [1,1,1]    counted {{.*}}     0 s     1.40 ns     7.56 ns     8.96 ns
// ONE: machine: '{{.*}}good.json' (calibrated on testhost, 2 cores): 1 ranks, 4 per node; per rank GEMM 1 GFLOP/s, local loop nests 1 GB/s; collectives measured on groups of 2
// ONE: * [1,1,1]    counted {{.*}}     0 s    65.54 us    31.04 us    96.58 us
// Four ranks on two cores: the entry of two ranks at half its rate, on a
// quarter of the rows (the bias is read whole: 31.23 us).
// FOUR: per rank GEMM 0.25 GFLOP/s, local loop nests 0.25 GB/s
// FOUR: * [1,1,4]    counted {{.*}}     0 s    65.54 us    31.23 us    96.77 us
// Two rows by a [1024, 1024] weight (a decode step's product): 4.19 MFLOP
// at 1 GFLOP/s is 4.19 ms, but its 4210688 bytes at the GEMM byte rate of
// good.json (5e8 B/s) take 8.42 ms, the slower bound. The H200 defaults
// count the flops alone.
// SKINNY: * [1,1,1]    counted {{.*}}     0 s    8.421 ms
// SKINNY-H200: * [1,1,1]    counted {{.*}}     0 s    89.43 ns
// JSON: "machine": "{{.*}}good.json",
// JSON-NEXT: "gemm_flops_per_s": 1000000000,
// JSON: "local_bytes_per_s": 1000000000,
// JSON-NEXT: "loop_iterations_per_s": 100000000,
// The all-reduce of the weight gradient over the depth group of two:
// alpha + bytes / rate = 1 us + 18432 B / 1 GB/s.
// COLL: all_reduce     depth             2 ranks  nvlink        1 calls            18432 B     19.43 us
// MISSING: summa-plan: error: cannot read machine file '{{.*}}missing.json': No such file or directory
// NOTJSON: summa-plan: error: machine file '{{.*}}notjson.json' is not JSON: {{.+}}
// FORMAT: summa-plan: error: machine file '{{.*}}format.json': not a summa machine file (no "format": "summa-machine")
// VERSION: summa-plan: error: machine file '{{.*}}version.json': version 2 is not supported (this summa-plan reads version 1)
// FIELD: summa-plan: error: machine file '{{.*}}field.json': gemm entry 1: 'flops_per_s' is missing
// NEGATIVE: summa-plan: error: machine file '{{.*}}negative.json': local entry 0: 'bytes_per_s' must be a positive number
// OP: summa-plan: error: machine file '{{.*}}op.json': collectives entry 0: 'op' is not one of broadcast, reduce, all_reduce, all_gather, reduce_scatter
// NOLOCAL: summa-plan: error: machine file '{{.*}}nolocal.json': 'local' is missing or not an array
// BOTH: summa-plan: error: give either --calibrate or --machine, not both

//--- linear.mlir
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @linear(%x: tensor<64x32xf32> {summa.role = "activation"},
                  %w: tensor<32x16xf32>, %b: tensor<16xf32>)
    -> tensor<64xf32> {
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
  %e3 = tensor.empty() : tensor<64xf32>
  %acc3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%relu : tensor<64x16xf32>) outs(%acc3 : tensor<64xf32>) {
  ^bb0(%v: f32, %a: f32):
    %r = arith.addf %v, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}

//--- skinny.mlir
func.func @skinny(%x: tensor<2x1024xf32> {summa.role = "activation"},
                  %w: tensor<1024x1024xf32>) -> tensor<2x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x1024xf32>) -> tensor<2x1024xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x1024xf32>, tensor<1024x1024xf32>)
                      outs(%acc : tensor<2x1024xf32>) -> tensor<2x1024xf32>
  return %mm : tensor<2x1024xf32>
}

//--- good.json
{
  "format": "summa-machine",
  "version": 1,
  "host": "testhost",
  "cores": 2,
  "ranks_per_node": 4,
  "gemm": [
    {"ranks": 1, "dtype": "f32", "flops_per_s": 1e9, "overhead_s": 0,
     "bytes_per_s": 5e8},
    {"ranks": 2, "dtype": "f32", "flops_per_s": 5e8}
  ],
  "local": [
    {"ranks": 1, "bytes_per_s": 1e9, "iterations_per_s": 1e8},
    {"ranks": 2, "bytes_per_s": 5e8, "iterations_per_s": 5e7}
  ],
  "collectives": [
    {"op": "all_reduce", "ranks": 2, "group_size": 2, "alpha_s": 1e-6,
     "bytes_per_s": 1e9}
  ]
}

//--- notjson.json
{"format": "summa-machine", "version": 1,

//--- format.json
{"version": 1, "gemm": [], "local": [], "collectives": []}

//--- version.json
{"format": "summa-machine", "version": 2, "gemm": [], "local": [],
 "collectives": []}

//--- field.json
{"format": "summa-machine", "version": 1,
 "gemm": [{"ranks": 1, "dtype": "f32", "flops_per_s": 1e9},
          {"ranks": 2, "dtype": "f32"}],
 "local": [{"ranks": 1, "bytes_per_s": 1e9}], "collectives": []}

//--- negative.json
{"format": "summa-machine", "version": 1,
 "gemm": [{"ranks": 1, "dtype": "f32", "flops_per_s": 1e9}],
 "local": [{"ranks": 1, "bytes_per_s": -5}], "collectives": []}

//--- op.json
{"format": "summa-machine", "version": 1,
 "gemm": [{"ranks": 1, "dtype": "f32", "flops_per_s": 1e9}],
 "local": [{"ranks": 1, "bytes_per_s": 1e9}],
 "collectives": [{"op": "alltoall", "group_size": 2, "alpha_s": 0,
                  "bytes_per_s": 1e9}]}

//--- nolocal.json
{"format": "summa-machine", "version": 1,
 "gemm": [{"ranks": 1, "dtype": "f32", "flops_per_s": 1e9}],
 "collectives": []}
