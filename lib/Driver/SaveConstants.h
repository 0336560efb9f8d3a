//===- SaveConstants.h - lifted constants to a tensor file ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-compile --save-constants: the values of the constants that
// --lift-constants turned into arguments, as a safetensors file under the
// arguments' names, which the binary reads with --inputs.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_DRIVER_SAVECONSTANTS_H
#define SUMMA_LIB_DRIVER_SAVECONSTANTS_H

#include "summa/Transforms/LiftConstants.h"

namespace mlir::summa {

/// Writes `constants` to the safetensors file `path`; on failure, an error
/// at the constant that cannot be written (or naming the file).
LogicalResult saveConstants(StringRef path, ArrayRef<LiftedConstant> constants,
                            Location fileLoc);

} // namespace mlir::summa

#endif // SUMMA_LIB_DRIVER_SAVECONSTANTS_H
