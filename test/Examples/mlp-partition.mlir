// RUN: summa-opt %summa_src/examples/mlp.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | FileCheck %s

// examples/mlp.mlir on [2,2,2]: X[192,96] -> tiles 48x48 (192/(2·2), 96/2),
// W1[96,384] -> 48x192, W2[384,96] -> 192x48, biases 192 and 48. Each
// matmul is a loop of 2 SUMMA steps with a row broadcast of the activation
// panel (axes = [col]) and a column broadcast of the weight panel
// (axes = [row]).
// CHECK: summa.grid @grid shape = [2, 2, 2]
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: %[[X:[^:]*]]: tensor<48x48xf32>
// CHECK-SAME: %[[W1:[^:]*]]: tensor<48x192xf32>
// CHECK-SAME: %[[B1:[^:]*]]: tensor<192xf32>
// CHECK-SAME: %[[W2:[^:]*]]: tensor<192x48xf32>
// CHECK-SAME: %[[B2:[^:]*]]: tensor<48xf32>
// CHECK-SAME: -> (tensor<48x48xf32>
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<48x192xf32>)
// CHECK-NEXT: %[[XP:.*]] = summa.broadcast %[[X]] on @grid axes = [col] root = %[[T]] : tensor<48x48xf32> -> tensor<48x48xf32>
// CHECK-NEXT: %[[WP:.*]] = summa.broadcast %[[W1]] on @grid axes = [row] root = %[[T]] : tensor<48x192xf32> -> tensor<48x192xf32>
// CHECK-NEXT: linalg.matmul ins(%[[XP]], %[[WP]] : tensor<48x48xf32>, tensor<48x192xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[B1]] : tensor<48x192xf32>, tensor<192xf32>)
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: math.tanh
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<48x48xf32>)
// CHECK-NEXT: summa.broadcast %[[G]] on @grid axes = [col] root = %[[T2]] : tensor<48x192xf32> -> tensor<48x192xf32>
// CHECK-NEXT: summa.broadcast %[[W2]] on @grid axes = [row] root = %[[T2]] : tensor<192x48xf32> -> tensor<192x48xf32>
// CHECK-NEXT: linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[B2]], %[[X]] : tensor<48x48xf32>, tensor<48xf32>, tensor<48x48xf32>)
// CHECK-NOT: summa.all_reduce
