//===- Generation.h - the derivation a generator is built from --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one set of summa-derive-generation options that builds a generator's
// prefill and decode step: `summa-compile --generate` compiles them and
// `summa-plan --generate` plans them, so both see the same steps.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_GENERATION_H
#define SUMMA_TRANSFORMS_GENERATION_H

#include "summa/Transforms/Passes.h"

namespace mlir::summa {

/// The derivation of a generator from the forward `function`: a prefill of
/// `prompt` tokens and a decode step that leave the choice of the token to
/// the driver (next-token=false) and take each row's start (left padding).
inline SummaDeriveGenerationOptions generatorDerivation(StringRef function,
                                                        int64_t prompt) {
  SummaDeriveGenerationOptions options;
  options.function = function.str();
  options.prompt = prompt;
  options.nextToken = false;
  options.leftPadding = true;
  return options;
}

} // namespace mlir::summa

#endif // SUMMA_TRANSFORMS_GENERATION_H
