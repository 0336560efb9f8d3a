// Redistributions (summa.relayout) end to end: test/Integration/Inputs/
// reshard.mlir has a transposed [out, in] weight, a fused QKV product sliced
// along its split hidden dimension, a concatenation along a split dimension,
// a constant table, a softmax and a reduction over the concatenated
// dimension. Every grid checks against the unpartitioned function.
// RUN: summa-opt %S/Inputs/reshard.mlir --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: summa-compile %S/Inputs/reshard.mlir --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --check | FileCheck %s
// RUN: summa-compile %S/Inputs/reshard.mlir --grid=2,2,1 -o %t.221
// RUN: %mpirun -np 4 %t.221 --check | FileCheck %s
// RUN: summa-compile %S/Inputs/reshard.mlir --grid=1,1,2 -o %t.112
// RUN: %mpirun -np 2 %t.112 --check | FileCheck %s
// RUN: summa-compile %S/Inputs/reshard.mlir --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --check | FileCheck %s

// The weight needs no redistribution (it is laid out [[col], [row]]); the
// three slices share one all-gather of the fused product; the concatenation
// gathers x; nothing else moves.
// REMARK: reshard.mlir:18:{{.*}}remark: 2.5D SUMMA matmul
// REMARK: reshard.mlir:25:{{.*}}remark: redistribution of 'tensor<8x12xf32>' from #summa.layout<@grid, {{\[}}[depth, row], [col]]> to #summa.layout<@grid, {{\[}}[depth, row], []]>: 384 bytes received per rank; summa.all_gather over [col] of dimension 1
// REMARK: reshard.mlir:36:{{.*}}remark: redistribution of 'tensor<8x4xf32>' from #summa.layout<@grid, {{\[}}[depth, row], [col]]> to #summa.layout<@grid, {{\[}}[depth, row], []]>: 128 bytes received per rank; summa.all_gather over [col] of dimension 1
// REMARK-NOT: redistribution

// CHECK: check: PASS
