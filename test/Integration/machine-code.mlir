// summa-compile writes two objects at -O1 and above: the loop nests
// (dispatch functions) compiled at the requested level, and the glue (the
// entry and the --check reference, `optnone`) by LLVM's -O0 code generator,
// whose time is linear in the glue's length. Both are linked, the module's
// local symbols (dispatch functions, the bias constant used by a loop nest
// of each) resolved across the two; -O0 and --emit=obj write one object.
// RUN: summa-compile %s --grid=2,2,1 -O2 -v -o %t.o2 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: summa-main{{[^ ]*}}.cpp {{[^ ]*}}summa-model{{[^ ]*}}.o {{[^ ]*}}summa-glue{{[^ ]*}}.o {{.*}}libsumma_runtime.so
// RUN: %mpirun -np 4 %t.o2 --check | FileCheck %s --check-prefix=PASS
// RUN: summa-compile %s --grid=2,2,1 -O0 -v -o %t.o0 2>&1 | FileCheck %s --check-prefix=ONE
// ONE-NOT: summa-glue
// ONE: summa-model{{[^ ]*}}.o {{.*}}libsumma_runtime.so
// RUN: %mpirun -np 4 %t.o0 --check | FileCheck %s --check-prefix=PASS
// RUN: summa-compile %s --grid=2,2,1 -O2 --emit=obj -o %t.obj
// RUN: llvm-nm %t.obj | FileCheck %s --check-prefix=OBJ
// OBJ-DAG: T mlp__spmd
// OBJ-DAG: T mlp__ref
// OBJ-DAG: t mlp__spmd_dispatch_0
// PASS: check: PASS
func.func @mlp(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %bias = arith.constant dense<[0.5, -0.25, 1.0, 0.0, 2.0, -1.0, 0.125, 3.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y, %bias : tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %c0 : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
