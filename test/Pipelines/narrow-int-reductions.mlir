// RUN: summa-opt %s --summa-lower-to-cuda="format=isa chip=sm_90" | FileCheck %s

// Row reductions of integers narrower than 32 bits (an i8 sum, an i1 "any"
// over a mask) become block reductions like any other, and compile to PTX:
// they accumulate in i32, since a warp shuffle moves 32 bits
// (shfl.sync.bfly.b32; NVVM has no narrower one).
// Four kernels: the two fills of the outputs and the two reductions.
// CHECK-LABEL: llvm.func @row_reductions(
// CHECK-COUNT-4: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @summa_kernels {{.*}}.entry row_reductions_kernel_0({{.*}}shfl.sync.bfly.b32{{.*}}.entry row_reductions_kernel_2({{.*}}shfl.sync.bfly.b32
func.func @row_reductions(%x: tensor<8x64xi8>, %mask: tensor<8x64xi1>) -> (tensor<8xi8>, tensor<8xi1>) {
  %zero = arith.constant 0 : i8
  %false = arith.constant false
  %e = tensor.empty() : tensor<8xi8>
  %f = linalg.fill ins(%zero : i8) outs(%e : tensor<8xi8>) -> tensor<8xi8>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xi8>) outs(%f : tensor<8xi8>) {
  ^bb0(%a: i8, %acc: i8):
    %s = arith.addi %a, %acc : i8
    linalg.yield %s : i8
  } -> tensor<8xi8>
  %eb = tensor.empty() : tensor<8xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<8xi1>) -> tensor<8xi1>
  %any = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%mask : tensor<8x64xi1>) outs(%fb : tensor<8xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %o = arith.ori %a, %acc : i1
    linalg.yield %o : i1
  } -> tensor<8xi1>
  return %sum, %any : tensor<8xi8>, tensor<8xi1>
}
