// RUN: not summa-opt %s --summa-assign-layouts="grid=2,3,1" 2>&1 | FileCheck %s --check-prefix=SQUARE
// RUN: not summa-opt %s --summa-assign-layouts="grid=0,0,1" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not summa-opt %s --summa-assign-layouts="grid=2,2" 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not summa-opt %s --summa-assign-layouts 2>&1 | FileCheck %s --check-prefix=NONE

// SQUARE: error: invalid grid [2, 3, 1]: expected q,q,d with q >= 1 and d >= 1
// ZERO: error: invalid grid [0, 0, 1]: expected q,q,d with q >= 1 and d >= 1
// SHORT: error: invalid grid [2, 2]: expected q,q,d with q >= 1 and d >= 1
// NONE: error: summa-assign-layouts needs a grid: pass grid=q,q,d or declare summa.grid @grid
func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %x : tensor<8x8xf32>
}
