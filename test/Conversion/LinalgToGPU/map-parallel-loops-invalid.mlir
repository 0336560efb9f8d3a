// RUN: not summa-opt %s -summa-map-parallel-loops=block-size=2048 2>&1 | FileCheck %s
// RUN: not summa-opt %s -summa-map-parallel-loops=block-size=0 2>&1 | FileCheck %s --check-prefix=ZERO

// CHECK: error: summa-map-parallel-loops: block-size must be in [1, 1024], got 2048
// ZERO: error: summa-map-parallel-loops: block-size must be in [1, 1024], got 0
func.func @f() {
  return
}
