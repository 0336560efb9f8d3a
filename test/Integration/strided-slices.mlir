// Strided slices (GPT-J's rotary on interleaved pairs): the slices of a
// dimension split over the grid whose stride divides the blocks stay local
// (each rank takes the same positions of its own block), a stride that does
// not (every third column) reads the dimension whole; the forward and the
// derived training step agree with the unpartitioned program on every
// grid.
// RUN: summa-opt %S/Inputs/strided-rotary.mlir --summa-normalize --summa-assign-layouts=grid=2,2,2 --summa-partition=remarks 2>&1 | FileCheck %s --check-prefix=LAYOUT
// LAYOUT-NOT: redistribution of 'tensor<8x32xf32>' from #summa.layout<@grid, {{\[\[}}depth, row], [col]]> to #summa.layout<@grid, {{\[\[}}depth, row], []]>: {{.*}} of dimension 1{{$}}
// LAYOUT: summa.all_gather over [col] of dimension 1
// RUN: summa-opt %S/Inputs/strided-rotary.mlir --summa-normalize --summa-assign-layouts=grid=2,2,2 --summa-partition | FileCheck %s --check-prefix=SPMD
// SPMD: tensor.extract_slice %{{.*}}[0, 0] [2, 8] [1, 2] : tensor<2x16xf32> to tensor<2x8xf32>
// SPMD: tensor.extract_slice %{{.*}}[0, 1] [2, 8] [1, 2] : tensor<2x16xf32> to tensor<2x8xf32>
// SPMD: tensor.insert_slice %{{.*}}[0, 0] [2, 8] [1, 2] : tensor<2x8xf32> into tensor<2x16xf32>
// SPMD: tensor.insert_slice %{{.*}}[0, 1] [2, 8] [1, 2] : tensor<2x8xf32> into tensor<2x16xf32>
// SPMD: tensor.extract_slice %{{.*}}[0, 2] [2, 10] [1, 3] : tensor<2x32xf32> to tensor<2x10xf32>
//
// RUN: summa-compile %S/Inputs/strided-rotary.mlir --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --check --iters 0 | FileCheck %s
// RUN: summa-compile %S/Inputs/strided-rotary.mlir --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --check --iters 0 | FileCheck %s
// CHECK: check: PASS
//
// The step: the adjoint of a strided slice is a strided insert into zeros.
// RUN: summa-opt %S/Inputs/strided-rotary.mlir --summa-differentiate="sgd-lr=0.1 params=floats" -o %t.step.mlir
// RUN: summa-compile %t.step.mlir --entry=rotary_grad --grid=2,2,1 -o %t.s221
// RUN: %mpirun -np 4 %t.s221 --check --iters 0 --gradcheck | FileCheck %s
// RUN: summa-compile %t.step.mlir --entry=rotary_grad --grid=2,2,2 -o %t.s222
// RUN: %mpirun -np 8 %t.s222 --check --iters 0 | FileCheck %s
