//===- SummaDialect.td - summa dialect definition ------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The summa dialect: grids, 2.5D layouts, distributed contractions and
// collectives on grid axes.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_TD
#define SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_TD

include "mlir/IR/OpBase.td"

def Summa_Dialect : Dialect {
  let name = "summa";
  let cppNamespace = "::mlir::summa";
  let summary = "2.5D SUMMA tensor parallelism";
  let description = [{
    The summa dialect describes programs that run on a `[q, q, d]` grid of
    ranks (`d` SUMMA grids of `q x q` side by side, the 2.5D algorithm of
    Wang, Xu, Bian and You, arXiv 2105.14500). It holds the grid symbol, the
    layout attribute that says which grid axes split each tensor dimension,
    the distributed contraction `summa.matmul`, and collectives on grid axes
    with every communication explicit in the IR.

    Grid axes are `row` (coordinate `i`), `col` (coordinate `j`) and `depth`
    (coordinate `k`). A collective names the axes its group *spans*, as
    upstream MLIR's `shard` dialect does: `axes = [col]` is the group of ranks
    that share `i` and `k` (one row of a SUMMA grid), `axes = [row]` one
    column, `axes = [depth]` one depth fibre.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  // Folders (summa.coord on an axis of one rank) return index attributes,
  // materialised as arith.constant.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::memref::MemRefDialect"];
}

class Summa_Op<string mnemonic, list<Trait> traits = []>
    : Op<Summa_Dialect, mnemonic, traits>;

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_TD
