// RUN: summa-opt %S/../../../Integration/Inputs/linear_backward.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s --check-prefix=FORMS
// RUN: summa-opt %S/../../../Integration/Inputs/linear_backward.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | FileCheck %s

// The backward of Y = X·W + b on [2,2,2]: dX = dY·Wᵀ (form abt),
// dW = Xᵀ·dY (form atb, a weight), db = Σ_tokens dY.
// FORMS: summa.matmul %{{.*}}, %{{.*}}, %{{.*}} on @grid form = abt : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
// FORMS: summa.matmul %{{.*}}, %{{.*}}, %{{.*}} on @grid form = atb : tensor<8x8xf32>, tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>

// CHECK-LABEL: func.func @linear_backward
// CHECK-SAME: (%[[X:[^:]*]]: tensor<8x8xf32> {{.*}}, %[[DY:[^:]*]]: tensor<8x4xf32> {{.*}}, %[[W:[^:]*]]: tensor<8x4xf32>

// dX: step t broadcasts W's row-block t down each column (axes [row],
// root t), multiplies dY·W_panelᵀ locally and reduces the partial product
// along the row to column t (axes [col], root t), where it is added.
// CHECK: %[[J:.*]] = summa.coord @grid axis = col
// CHECK: %[[DX:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<8x8xf32>)
// CHECK: %[[WP:.*]] = summa.broadcast %[[W]] on @grid axes = [row] root = %[[T]] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK: %[[P:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[DY]], %[[WP]] : tensor<8x4xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: %[[R:.*]] = summa.reduce %[[P]] on @grid axes = [col] root = %[[T]] kind = sum : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK: %[[OWN:.*]] = arith.cmpi eq, %[[J]], %[[T]] : index
// CHECK: linalg.generic {{.*}} ins(%[[R]] : tensor<8x8xf32>) outs(%[[ACC]] : tensor<8x8xf32>)
// CHECK: arith.select %[[OWN]]

// dW: step t broadcasts X's column-block t along each row (axes [col],
// root t), multiplies X_panelᵀ·dY locally, reduces along the column to row
// t (axes [row], root t); the depth layers' sums are then all-reduced
// over depth, which splits the batch.
// CHECK: %[[I:.*]] = summa.coord @grid axis = row
// CHECK: %[[DWL:.*]] = scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8x4xf32>)
// CHECK: %[[XP:.*]] = summa.broadcast %[[X]] on @grid axes = [col] root = %[[T2]] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK: %[[P2:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[XP]], %[[DY]] : tensor<8x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: summa.reduce %[[P2]] on @grid axes = [row] root = %[[T2]] kind = sum : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK: arith.cmpi eq, %[[I]], %[[T2]] : index
// CHECK: %[[DW:.*]] = summa.all_reduce %[[DWL]] on @grid axes = [depth] kind = sum : tensor<8x4xf32> -> tensor<8x4xf32>

// db: a local partial sum over this rank's tokens, all-reduced over the
// axes that split the tokens.
// CHECK: %[[DBL:.*]] = linalg.generic {{.*}} ins(%[[DY]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[DB:.*]] = summa.all_reduce %[[DBL]] on @grid axes = [depth, row] kind = sum : tensor<4xf32> -> tensor<4xf32>
// CHECK: return %[[DX]], %[[DW]], %[[DB]]
