// A model summa cannot partition: its activation has a dynamic dimension.
// Every grid is infeasible, with the pass's diagnostic as the reason.
func.func @s(%x: tensor<?x8xf32> {summa.role = "activation"})
    -> tensor<?x8xf32> {
  return %x : tensor<?x8xf32>
}
