// RUN: summa-opt %s -split-input-file --summa-combine-collectives | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-combine-collectives="max-bytes=16" | FileCheck %s --check-prefix=LIMIT

summa.grid @grid shape = [2, 2, 2]

// Two independent sums over the same group become one all-reduce of both
// tiles packed into one vector.
// CHECK-LABEL: func.func @independent
// CHECK-SAME: (%[[A:.*]]: tensor<4x2xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[FA:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<4x2xf32> into tensor<8xf32>
// CHECK: %[[P0:.*]] = tensor.insert_slice %[[FA]] into %{{.*}}[0] [8] [1] : tensor<8xf32> into tensor<11xf32>
// CHECK: %[[P1:.*]] = tensor.insert_slice %[[B]] into %[[P0]][8] [3] [1] : tensor<3xf32> into tensor<11xf32>
// CHECK: %[[R:.*]] = summa.all_reduce %[[P1]] on @grid axes = [col] kind = sum : tensor<11xf32> -> tensor<11xf32>
// CHECK: %[[SA:.*]] = tensor.extract_slice %[[R]][0] [8] [1]
// CHECK: %[[RA:.*]] = tensor.expand_shape %[[SA]] {{\[\[}}0, 1]] output_shape [4, 2]
// CHECK: %[[RB:.*]] = tensor.extract_slice %[[R]][8] [3] [1]
// CHECK-NOT: summa.all_reduce
// CHECK: return %[[RA]], %[[RB]]
func.func @independent(%a: tensor<4x2xf32>, %b: tensor<3xf32>) -> (tensor<4x2xf32>, tensor<3xf32>) {
  %0 = summa.all_reduce %a on @grid axes = [col] kind = sum : tensor<4x2xf32> -> tensor<4x2xf32>
  %1 = summa.all_reduce %b on @grid axes = [col] kind = sum : tensor<3xf32> -> tensor<3xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<3xf32>
}

// -----

summa.grid @grid shape = [2, 2, 2]

// Not merged: the second depends on the first, or they differ in group or
// kind.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: summa.all_reduce
// CHECK-NOT: tensor.insert_slice
func.func @kept(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = summa.all_reduce %a on @grid axes = [col] kind = sum : tensor<4xf32> -> tensor<4xf32>
  %1 = arith.addf %0, %b : tensor<4xf32>
  %2 = summa.all_reduce %1 on @grid axes = [col] kind = sum : tensor<4xf32> -> tensor<4xf32>
  %3 = summa.all_reduce %b on @grid axes = [row] kind = sum : tensor<4xf32> -> tensor<4xf32>
  %4 = summa.all_reduce %3 on @grid axes = [row] kind = max : tensor<4xf32> -> tensor<4xf32>
  return %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

summa.grid @grid shape = [2, 2, 2]

// Only all-reduces of at most max-bytes (1 MiB by default) are packed: a
// larger one is reduced where it is (packing would copy its bytes in and
// out), the small ones around it still become one.
// CHECK-LABEL: func.func @large_kept
// CHECK-SAME: (%[[BIG:[^:]*]]: tensor<512x1024xf32>, %[[A:[^:]*]]: tensor<4xf32>, %[[B:[^:]*]]: tensor<6xf32>)
// CHECK: %[[RBIG:.*]] = summa.all_reduce %[[BIG]] on @grid axes = [depth] kind = sum : tensor<512x1024xf32>
// CHECK: %[[R:.*]] = summa.all_reduce %{{.*}} on @grid axes = [depth] kind = sum : tensor<10xf32> -> tensor<10xf32>
// CHECK-NOT: summa.all_reduce
// CHECK: return %[[RBIG]]
func.func @large_kept(%big: tensor<512x1024xf32>, %a: tensor<4xf32>, %b: tensor<6xf32>) -> (tensor<512x1024xf32>, tensor<4xf32>, tensor<6xf32>) {
  %0 = summa.all_reduce %a on @grid axes = [depth] kind = sum : tensor<4xf32> -> tensor<4xf32>
  %1 = summa.all_reduce %big on @grid axes = [depth] kind = sum : tensor<512x1024xf32> -> tensor<512x1024xf32>
  %2 = summa.all_reduce %b on @grid axes = [depth] kind = sum : tensor<6xf32> -> tensor<6xf32>
  return %1, %0, %2 : tensor<512x1024xf32>, tensor<4xf32>, tensor<6xf32>
}

// With max-bytes=16 the 24-byte tile stays alone.
// LIMIT-LABEL: func.func @large_kept
// LIMIT-COUNT-3: summa.all_reduce
// LIMIT-NOT: tensor.insert_slice

// -----

summa.grid @grid shape = [2, 2, 2]

// A gradient norm's running sum: three squared norms, each reduced over the
// axes its gradient is split over ([col], [row, col], [depth]), added one
// after the other, are one all-reduce over all three axes of the local
// sum, each term counted on one rank along the axes the others reduce and
// it does not (coordinate 0 there, else 0.0). The additions stay generics.
// CHECK-LABEL: func.func @norm_chain
// CHECK-SAME: (%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %[[C:.*]]: tensor<f32>)
// CHECK-NOT: summa.all_reduce
// CHECK: %[[ROW:.*]] = summa.coord @grid axis = row
// CHECK: %[[ONROW:.*]] = arith.cmpi eq, %[[ROW]], %{{.*}}
// CHECK: %[[AB:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<f32>, tensor<f32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[MA:.*]] = arith.select %[[ONROW]], %[[X]], %{{.*}} : f32
// CHECK: arith.addf %[[MA]], %[[Y]] : f32
// CHECK-NOT: summa.all_reduce
// CHECK: %[[DEPTH:.*]] = summa.coord @grid axis = depth
// CHECK: %[[ONDEPTH:.*]] = arith.cmpi eq, %[[DEPTH]]
// CHECK: summa.coord @grid axis = col
// CHECK: summa.coord @grid axis = row
// CHECK: %[[ONBOTH:.*]] = arith.andi
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%[[AB]], %[[C]] : tensor<f32>, tensor<f32>)
// CHECK: ^bb0(%[[X2:.*]]: f32, %[[Z:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[MAB:.*]] = arith.select %[[ONDEPTH]], %[[X2]], %{{.*}} : f32
// CHECK: %[[MC:.*]] = arith.select %[[ONBOTH]], %[[Z]], %{{.*}} : f32
// CHECK: arith.addf %[[MAB]], %[[MC]] : f32
// CHECK: %[[R:.*]] = summa.all_reduce %[[L]] on @grid axes = [col, row, depth] kind = sum : tensor<f32> -> tensor<f32>
// CHECK-NOT: summa.all_reduce
// CHECK: return %[[R]]
#s = affine_map<() -> ()>
func.func @norm_chain(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  %ra = summa.all_reduce %a on @grid axes = [col] kind = sum : tensor<f32> -> tensor<f32>
  %rb = summa.all_reduce %b on @grid axes = [row, col] kind = sum : tensor<f32> -> tensor<f32>
  %e0 = tensor.empty() : tensor<f32>
  %s0 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []} ins(%ra, %rb : tensor<f32>, tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %rc = summa.all_reduce %c on @grid axes = [depth] kind = sum : tensor<f32> -> tensor<f32>
  %e1 = tensor.empty() : tensor<f32>
  %s1 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []} ins(%s0, %rc : tensor<f32>, tensor<f32>) outs(%e1 : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %s1 : tensor<f32>
}

// -----

summa.grid @grid shape = [2, 2, 2]

// Not merged: a sum whose all-reduce has another use (its value is needed
// alone), and a maximum.
// CHECK-LABEL: func.func @sums_kept
// CHECK-COUNT-4: summa.all_reduce
// CHECK-NOT: summa.all_reduce
#s2 = affine_map<() -> ()>
func.func @sums_kept(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %ra = summa.all_reduce %a on @grid axes = [col] kind = sum : tensor<f32> -> tensor<f32>
  %rb = summa.all_reduce %b on @grid axes = [row] kind = sum : tensor<f32> -> tensor<f32>
  %e0 = tensor.empty() : tensor<f32>
  %s0 = linalg.generic {indexing_maps = [#s2, #s2, #s2], iterator_types = []} ins(%ra, %rb : tensor<f32>, tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %ma = summa.all_reduce %a on @grid axes = [col] kind = max : tensor<f32> -> tensor<f32>
  %mb = summa.all_reduce %b on @grid axes = [row] kind = max : tensor<f32> -> tensor<f32>
  %e1 = tensor.empty() : tensor<f32>
  %s1 = linalg.generic {indexing_maps = [#s2, #s2, #s2], iterator_types = []} ins(%ma, %mb : tensor<f32>, tensor<f32>) outs(%e1 : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %s0, %ra, %s1 : tensor<f32>, tensor<f32>, tensor<f32>
}
