// RUN: not summa-opt %S/derive-generation.mlir --summa-derive-generation 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not summa-opt %S/derive-generation.mlir --summa-derive-generation=prompt=4 2>&1 | FileCheck %s --check-prefix=LONG

// The prefill's prompt length is the pass's option: given, and shorter
// than the export's sequence (which holds the prompt and what is
// generated).
// NONE: error: summa-derive-generation: give the prompt's length (prompt=P): the prefill takes P ids per sequence
// LONG: error: summa-derive-generation: the prompt's length must be in [1, 3] (the export's sequence of 4 holds the prompt and at least one new token); got 4
