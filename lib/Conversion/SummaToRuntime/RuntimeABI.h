//===- RuntimeABI.h - the runtime C ABI as seen by the compiler -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_CONVERSION_SUMMATORUNTIME_RUNTIMEABI_H
#define SUMMA_LIB_CONVERSION_SUMMATORUNTIME_RUNTIMEABI_H

#include "summa/Support/RuntimeDType.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::summa::abi {

/// C types of runtime arguments. `IntPtr` is intptr_t, MLIR's `index`.
enum class CType { IntPtr, I64, I32 };

/// One function of runtime/include/summa/Runtime/SummaRuntime.h.
struct RuntimeFunction {
  const char *name;
  SmallVector<CType, 16> args;
  /// The result's C type, if the function returns one.
  std::optional<CType> result = std::nullopt;
};

extern const RuntimeFunction kBroadcast;
extern const RuntimeFunction kReduce;
extern const RuntimeFunction kBroadcastStart;
extern const RuntimeFunction kReduceStart;
extern const RuntimeFunction kWait;
extern const RuntimeFunction kAllReduce;
extern const RuntimeFunction kAllGather;
extern const RuntimeFunction kReduceScatter;
extern const RuntimeFunction kMatmul;
extern const RuntimeFunction kMatmulBatched;
extern const RuntimeFunction kMatmulEpilogue;
extern const RuntimeFunction kLoadScalar;
extern const RuntimeFunction kGridCoord;

/// Declares `fn` in `module` if needed and calls it. `args` may be `index`
/// or integer values; they are cast to the C types of `fn`.
func::CallOp createCall(OpBuilder &b, Location loc, ModuleOp module,
                        const RuntimeFunction &fn, ValueRange args);

} // namespace mlir::summa::abi

#endif // SUMMA_LIB_CONVERSION_SUMMATORUNTIME_RUNTIMEABI_H
