// RUN: not summa-opt %s --summa-assign-layouts="grid=2,2,1" 2>&1 | FileCheck %s

// Malformed IR gets the parser's diagnostic with its location, no crash.
// CHECK: malformed.mlir:[[@LINE+2]]:{{[0-9]+}}: error: use of undeclared SSA value name
func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %y : tensor<8x8xf32>
}
