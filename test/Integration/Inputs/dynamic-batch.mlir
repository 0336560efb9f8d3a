// A function with a dynamic batch (an export without static shapes): no
// grid can lay it out (grid-auto.mlir).
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  return %x : tensor<?x8xf32>
}
