//===- Gradcheck.h - --gradcheck: derivatives by differences --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// --gradcheck, on rank 0: the gradients a training step's derivative rules
// give (SummaGradcheckDesc::gradients, unpartitioned, in f64 where the
// program allows) against central finite differences of its loss along
// random directions, one parameter at a time (torch.autograd.gradcheck's
// fast mode, JAX's check_grads): for a unit direction v,
//
//   (L(w + h v) - L(w - h v)) / 2h  against  <dL/dw, v>.
//
// It needs no framework: the loss function is the forward the step was
// derived from. --check proves that the partitioned step computes what the
// unpartitioned one does; --gradcheck that the unpartitioned one's
// derivatives are those of its loss.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_GRADCHECK_H
#define SUMMA_RUNTIME_TOOLING_GRADCHECK_H

#include "RunContext.h"

namespace summa::rt::driver {

/// --gradcheck on rank 0: prints a line per parameter (the worst relative
/// error over its directions) and a verdict; every rank returns the exit
/// status (0 pass, 1 fail, 2 when the program has nothing to check).
int gradcheck(const RunContext &run);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_GRADCHECK_H
