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
// fused product is factored into 3 groups, so its three slices need none;
// the concatenation of two [8]-column values is factored into 2 groups, and
// the softmax over it gathers it (blocks reordered group by group), as does
// the softmax over the fused product; nothing else moves. linalg.index of
// the factored columns is made global group by group.
// REMARK: reshard.mlir:20:{{.*}}remark: 2.5D SUMMA matmul
// REMARK: reshard.mlir:39:{{.*}}remark: constant 'tensor<16xf32>' laid out as #summa.layout<@grid, [2x[col]]>
// REMARK: reshard.mlir:47:{{.*}}remark: redistribution of 'tensor<8x8xf32>' from #summa.layout<@grid, {{\[}}[depth, row], 2x[col]]> to #summa.layout<@grid, {{\[}}[depth, row], []]>: 256 bytes received per rank; summa.all_gather over [col] of dimension 1 (then reordered group by group)
// REMARK: reshard.mlir:59:{{.*}}remark: linalg.index 1 offset by this rank's block over [col] in each of 3 groups
// REMARK: reshard.mlir:67:{{.*}}remark: redistribution of 'tensor<8x12xf32>' from #summa.layout<@grid, {{\[}}[depth, row], 3x[col]]> to #summa.layout<@grid, {{\[}}[depth, row], []]>: 384 bytes received per rank; summa.all_gather over [col] of dimension 1 (then reordered group by group)
// REMARK-NOT: redistribution

// CHECK: check: PASS
