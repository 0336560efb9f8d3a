//===- SummaModel.h - a compiled model as a library ------------*- C -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `summa-compile --emit=lib -o libmodel.so` writes a shared library whose
// `summa_program()` returns the model's SummaProgramDesc, and a header
// (libmodel.h) that declares it and includes this one. A host program, or
// Python through ctypes (examples/lib/train.py), drives the model with the
// calls below inside its own loop; the compiled binaries' driver
// (summaRtMain) is a client of the same model object.
//
// Every call is made by every rank of the communicator, in the same order
// (they run collectives). Data is host memory of the tensor's element type,
// row-major:
//  * SUMMA_LAYOUT_WHOLE: the whole tensor on every rank. set_input copies
//    this rank's tile out of it; get_output gathers the tiles and gives every
//    rank the whole tensor.
//  * SUMMA_LAYOUT_TILE: this rank's tile only (summaModelTileShape), as the
//    model lays the tensor out on the grid.
// Tensors are named as in tensor files: the function's argument and result
// names (summa.name), else "arg<N>" / "result<N>"; an output that updates an
// input (summa.updates) is found by its own name or by the input's.
//
// Errors in the arguments (an unknown name, an invalid layout) return -1 and
// set summaModelLastError; a failure of the runtime (MPI, BLAS, CUDA) aborts
// every rank with a message, as everywhere in summa.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_SUMMAMODEL_H
#define SUMMA_RUNTIME_SUMMAMODEL_H

#include "summa/Runtime/SummaRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SummaModel SummaModel;

enum SummaDataLayout {
  SUMMA_LAYOUT_WHOLE = 0,
  SUMMA_LAYOUT_TILE = 1,
};

/// Starts the runtime for `program` on the communicator `comm`, given as a
/// Fortran handle (MPI_Comm_c2f; mpi4py: comm.py2f()), or -1 for
/// MPI_COMM_WORLD; MPI is initialised if it is not yet (and then finalised
/// by summaModelFinalize). The communicator must have the grid's q·q·d
/// ranks. Allocates this rank's tiles of every input and output, zeroed.
/// One model at a time.
SUMMA_RT_EXPORT SummaModel *summaModelInit(const SummaProgramDesc *program,
                                           int64_t comm);

SUMMA_RT_EXPORT int32_t summaModelNumInputs(const SummaModel *model);
SUMMA_RT_EXPORT int32_t summaModelNumOutputs(const SummaModel *model);
/// The name of input / output `index`, or NULL when there is none.
SUMMA_RT_EXPORT const char *summaModelInputName(const SummaModel *model,
                                                int32_t index);
SUMMA_RT_EXPORT const char *summaModelOutputName(const SummaModel *model,
                                                 int32_t index);
/// The tensor `name` (an input, else an output): writes its rank, element
/// type (SummaDType), global shape and this rank's tile shape (each up to
/// SUMMA_MAX_RANK entries; NULL pointers are skipped). Returns 0, or -1.
SUMMA_RT_EXPORT int32_t summaModelTensorInfo(const SummaModel *model,
                                             const char *name, int32_t *rank,
                                             int32_t *dtype,
                                             int64_t *globalShape,
                                             int64_t *tileShape);

/// Sets input `name` from `data` (see the layouts above). Returns 0, or -1.
SUMMA_RT_EXPORT int32_t summaModelSetInput(SummaModel *model, const char *name,
                                           const void *data, int32_t layout);
/// One call of the model. Then every output that updates an input
/// (summa.updates: new weights, optimizer state) replaces it, so that the
/// next call is the next training step. Returns 0.
SUMMA_RT_EXPORT int32_t summaModelRun(SummaModel *model);
/// Copies output `name` (an output's name, or the name of the input it
/// updates) of the last call into `data`. Returns 0, or -1.
SUMMA_RT_EXPORT int32_t summaModelGetOutput(SummaModel *model, const char *name,
                                            void *data, int32_t layout);
/// The message of the last call that returned -1 on this rank.
SUMMA_RT_EXPORT const char *summaModelLastError(const SummaModel *model);
/// Frees the tiles and finalises the runtime (and MPI, if summaModelInit
/// initialised it).
SUMMA_RT_EXPORT void summaModelFinalize(SummaModel *model);

/* A generator: `summa-compile --generate --emit=lib -o libgen.so` writes a
 * library whose `summa_generator()` returns its SummaGenerateDesc (the
 * prefill and the decode step) and a header libgen.h. The calls below are
 * the executable's driver (summaRtGenerate) piece by piece; every rank
 * makes them, in the same order. Ids are int64, row-major; B rows, a
 * prefill of P tokens per row, sequences of at most S tokens, a vocabulary
 * of V (summaGeneratorInfo). Errors in the arguments return -1 and set
 * summaGeneratorLastError. examples/lib/generate.py drives one from
 * Python. */
typedef struct SummaGenerator SummaGenerator;

/// Starts the runtime for `generator` on `comm` as summaModelInit does and
/// allocates the tiles of its prefill and decode step, zeroed.
SUMMA_RT_EXPORT SummaGenerator *
summaGeneratorInit(const SummaGenerateDesc *generator, int64_t comm);
/// Writes B, P, S and V (NULL pointers are skipped). Returns 0.
SUMMA_RT_EXPORT int32_t summaGeneratorInfo(const SummaGenerator *generator,
                                           int64_t *rows, int64_t *promptLength,
                                           int64_t *maxLength,
                                           int64_t *vocabulary);
/// Loads every weight, by name, from `path`: a safetensors file, a
/// directory of .npy files or a training checkpoint (step<N>, any grid).
/// Returns 0, or -1 when it lacks one (named by summaGeneratorLastError).
SUMMA_RT_EXPORT int32_t summaGeneratorLoad(SummaGenerator *generator,
                                           const char *path);
/// Sets the weight `name` from the whole tensor (as SUMMA_LAYOUT_WHOLE).
/// Returns 0, or -1.
SUMMA_RT_EXPORT int32_t summaGeneratorSetWeight(SummaGenerator *generator,
                                                const char *name,
                                                const void *data);
/// The prefill on `ids` [B, P] of rows that start at `starts` [B] (the
/// slot of each row's first token, rows left-padded to P; NULL: all 0).
/// Returns 0, or -1.
SUMMA_RT_EXPORT int32_t summaGeneratorPrefill(SummaGenerator *generator,
                                              const int64_t *ids,
                                              const int64_t *starts);
/// One decode step on `tokens` [B] at the next position. Returns 0, or -1
/// (before a prefill, or when the sequences are full).
SUMMA_RT_EXPORT int32_t summaGeneratorDecode(SummaGenerator *generator,
                                             const int64_t *tokens);
/// The last call's logits [B, V] as float, whole on every rank. Returns 0,
/// or -1.
SUMMA_RT_EXPORT int32_t summaGeneratorLogits(SummaGenerator *generator,
                                             float *logits);
/// The next token of each row [B] from the last call's logits, chosen where
/// they are split, the same on every rank: greedy (temperature 0) or drawn
/// with `temperature`, `topK` (0: all), `topP` (1: all) and `seed`, as the
/// executable's --temperature, --top-k, --top-p and --seed. Returns 0, or
/// -1.
SUMMA_RT_EXPORT int32_t summaGeneratorSample(SummaGenerator *generator,
                                             double temperature, int64_t topK,
                                             double topP, uint64_t seed,
                                             int64_t *tokens);
/// The executable's whole loop: `ids` [B, length] (length >= P) with its
/// `mask` (attention_mask [B, length], left-padded; NULL: all ones), up to
/// `maxNewTokens` new tokens (-1: as many as S leaves), sampled as by
/// summaGeneratorSample, a row ending at `eos` (-1: none) and padded with
/// `pad` after it. Writes `sequences` [B, length + N] (room for
/// length + maxNewTokens, or S, tokens per row) and `*total` = length + N.
/// Returns 0, or -1.
SUMMA_RT_EXPORT int32_t summaGeneratorGenerate(
    SummaGenerator *generator, const int64_t *ids, const int64_t *mask,
    int64_t length, int64_t maxNewTokens, double temperature, int64_t topK,
    double topP, uint64_t seed, int64_t eos, int64_t pad, int64_t *sequences,
    int64_t *total);
/// The message of the last call that returned -1 on this rank.
SUMMA_RT_EXPORT const char *
summaGeneratorLastError(const SummaGenerator *generator);
/// Frees the tiles and finalises the runtime (and MPI, if
/// summaGeneratorInit initialised it).
SUMMA_RT_EXPORT void summaGeneratorFinalize(SummaGenerator *generator);

#ifdef __cplusplus
}
#endif

#endif // SUMMA_RUNTIME_SUMMAMODEL_H
