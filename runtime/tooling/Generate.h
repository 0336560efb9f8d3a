//===- Generate.h - summaRtGenerate: text from a compiled model -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The driver of a generator (summa-compile --generate): the prefill on the
// prompt, the decode step once per token, the next token chosen from the
// logits where they are split (Sampling.h), `sequences` written as
// Hugging Face's generate() returns them. Each backend's summaRtGenerate
// calls generate() with its Backend.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_GENERATE_H
#define SUMMA_RUNTIME_TOOLING_GENERATE_H

#include "summa/Runtime/SummaRuntime.h"

namespace summa::rt::driver {

struct Backend;

/// summaRtGenerate of a backend.
int generate(int argc, char **argv, const SummaGenerateDesc *generator,
             const Backend &backend);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_GENERATE_H
