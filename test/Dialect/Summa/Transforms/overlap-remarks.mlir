// RUN: summa-opt %s -split-input-file --summa-overlap="remarks" -verify-diagnostics

summa.grid @g2 shape = [2, 2, 1]
func.func @overlapped(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %c: memref<4x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-remark @+1 {{SUMMA loop of 2 steps overlapped: 2 panel broadcast(s) start one step early, 0 reduce(s) complete one step late}}
  scf.for %t = %c0 to %c2 step %c1 {
    %pa = memref.alloc() : memref<4x8xf32>
    memref.copy %a, %pa : memref<4x8xf32> to memref<4x8xf32>
    summa.broadcast %pa on @g2 axes = [col] root = %t : memref<4x8xf32>
    %pb = memref.alloc() : memref<8x6xf32>
    memref.copy %b, %pb : memref<8x6xf32> to memref<8x6xf32>
    summa.broadcast %pb on @g2 axes = [row] root = %t : memref<8x6xf32>
    linalg.matmul ins(%pa, %pb : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
    memref.dealloc %pa : memref<4x8xf32>
    memref.dealloc %pb : memref<8x6xf32>
  }
  return
}

// -----

summa.grid @g2 shape = [2, 2, 1]
func.func @source_written(%a: memref<4x8xf32>, %c: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant 1.0 : f32
  scf.for %t = %c0 to %c2 step %c1 {
    %pa = memref.alloc() : memref<4x8xf32>
    memref.copy %a, %pa : memref<4x8xf32> to memref<4x8xf32>
    // expected-remark @+1 {{stays synchronous: the loop may write the tile it broadcasts}}
    summa.broadcast %pa on @g2 axes = [col] root = %t : memref<4x8xf32>
    linalg.add ins(%pa, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
    linalg.fill ins(%cst : f32) outs(%a : memref<4x8xf32>)
    memref.dealloc %pa : memref<4x8xf32>
  }
  return
}

// -----

summa.grid @g2 shape = [2, 2, 1]
func.func @not_a_copy(%a: memref<4x8xf32>, %c: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %t = %c0 to %c2 step %c1 {
    %pa = memref.alloc() : memref<4x8xf32>
    linalg.copy ins(%a : memref<4x8xf32>) outs(%pa : memref<4x8xf32>)
    // expected-remark @+1 {{stays synchronous: its buffer is used before the broadcast}}
    summa.broadcast %pa on @g2 axes = [col] root = %t : memref<4x8xf32>
    linalg.add ins(%pa, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
    memref.dealloc %pa : memref<4x8xf32>
  }
  return
}

// -----

summa.grid @g2 shape = [2, 2, 1]
func.func @accumulation_conflict(%x: memref<4x8xf32>, %dy: memref<4x8xf32>, %acc: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-remark @+1 {{SUMMA loop of 2 steps overlapped: 1 panel broadcast(s) start one step early, 0 reduce(s) complete one step late}}
  scf.for %t = %c0 to %c2 step %c1 {
    %px = memref.alloc() : memref<4x8xf32>
    memref.copy %x, %px : memref<4x8xf32> to memref<4x8xf32>
    summa.broadcast %px on @g2 axes = [col] root = %t : memref<4x8xf32>
    %p = memref.alloc() : memref<8x8xf32>
    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%px, %dy : memref<4x8xf32>, memref<4x8xf32>) outs(%acc : memref<8x8xf32>)
    linalg.copy ins(%acc : memref<8x8xf32>) outs(%p : memref<8x8xf32>)
    // expected-remark @+1 {{stays synchronous: the rest of the step writes memory its readers use}}
    summa.reduce %p on @g2 axes = [row] root = %t kind = sum : memref<8x8xf32>
    linalg.add ins(%p, %acc : memref<8x8xf32>, memref<8x8xf32>) outs(%acc : memref<8x8xf32>)
    memref.dealloc %px : memref<4x8xf32>
    memref.dealloc %p : memref<8x8xf32>
  }
  return
}

// -----

summa.grid @g2 shape = [2, 2, 1]
func.func @unread_reduce(%p0: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %t = %c0 to %c2 step %c1 {
    %p = memref.alloc() : memref<8x8xf32>
    memref.copy %p0, %p : memref<8x8xf32> to memref<8x8xf32>
    // expected-remark @+1 {{stays synchronous: nothing reads its result in the step}}
    summa.reduce %p on @g2 axes = [row] root = %t kind = sum : memref<8x8xf32>
    memref.dealloc %p : memref<8x8xf32>
  }
  return
}
