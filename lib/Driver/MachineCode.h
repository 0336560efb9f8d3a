//===- MachineCode.h - LLVM IR to object files -------------------*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The last step of summa-compile: LLVM's optimisation pipeline and code
// generator for the host, writing object files.
//
// The glue of a compiled model (its entry function and the --check
// reference: allocations and runtime calls in one long function per model,
// marked `optnone` by summa-outline-dispatches) does not profit from LLVM's
// optimising code generator, whose instruction selection and greedy register
// allocation take time that grows faster than linearly with a function's
// length (a 96-layer GPT: 2.5 s of register allocation at 96 layers, 3.7x
// that of 48). emitSplitObjects therefore writes two objects: the loop nests
// (the dispatch functions) compiled at the requested level, and the glue by
// LLVM's -O0 code generator (fast instruction selection, the local register
// allocator), in time linear in its length.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_DRIVER_MACHINECODE_H
#define SUMMA_LIB_DRIVER_MACHINECODE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::summa::compile {

/// Optimises `module` for the host at -O<optLevel> (LLVM's default pipeline)
/// and writes one object file to `path`.
llvm::Error emitObject(llvm::Module &module, unsigned optLevel,
                       llvm::StringRef path);

/// Optimises `module` as emitObject does, then writes the functions marked
/// `optnone` (the glue) to `gluePath`, compiled by the -O0 code generator,
/// and everything else to `path`, compiled at -O<optLevel>. Symbols local to
/// the module become hidden globals so that the two objects link. Appends
/// the paths written to `written`: `path` alone where there is no glue or
/// optLevel is 0 (one object, as emitObject).
llvm::Error emitSplitObjects(llvm::Module &module, unsigned optLevel,
                             llvm::StringRef path, llvm::StringRef gluePath,
                             llvm::SmallVectorImpl<std::string> &written);

} // namespace mlir::summa::compile

#endif // SUMMA_LIB_DRIVER_MACHINECODE_H
