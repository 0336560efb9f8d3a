//===- SummaTypes.td - summa types -------------------------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMATYPES_TD
#define SUMMA_DIALECT_SUMMA_IR_SUMMATYPES_TD

include "summa/Dialect/Summa/IR/SummaDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Summa_TokenType : TypeDef<Summa_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "a collective in flight";
  let description = [{
    Returned by `summa.async_broadcast` and `summa.async_reduce`; the
    collective's buffer must not be read or written until `summa.wait` of
    the token. Every token is waited for exactly once. Tokens are values: a
    loop may carry them (`scf.for` iteration arguments), which is how
    `summa-overlap` keeps step `t+1`'s broadcasts in flight across a loop
    iteration. Lowered to the runtime's request handle (`i64`).
  }];
}

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMATYPES_TD
