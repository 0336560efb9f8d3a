//===- Options.h - the command line of a compiled program -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The options summaRtMain takes (--iters, --check, --steps, --inputs,
// --checkpoint, --data, --metrics, ...), their parsing and --help. Options
// are parsed before MPI is initialised, so that --help runs on any number of
// ranks.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_OPTIONS_H
#define SUMMA_RUNTIME_TOOLING_OPTIONS_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace summa::rt::driver {

struct Backend;

struct Options {
  int64_t iters = 1;
  /// Steps of the checked computation: outputs that update an input are fed
  /// back before the next step.
  int64_t steps = 1;
  bool check = false;
  /// --gradcheck: the derived gradients against finite differences of the
  /// loss (Gradcheck.h), along --gradcheck-dirs random directions per
  /// parameter, within --gradcheck-tol (unset: by the precision).
  bool gradcheck = false;
  int64_t gradcheckDirections = 2;
  double gradcheckTol = std::numeric_limits<double>::quiet_NaN();
  /// --check also fails if two ranks holding the same block differ at all.
  bool exactReplicas = false;
  uint64_t seed = 42;
  /// --tol; unset (NaN): by the output's element type (toleranceFor).
  double tol = std::numeric_limits<double>::quiet_NaN();
  /// --tol PATTERN=T: the tolerance of the outputs whose name matches the
  /// shell pattern (the first that matches), before --tol T.
  std::vector<std::pair<std::string, double>> namedTols;
  /// An output whose every element is within atol of the reference passes
  /// whatever its relative error: a gradient that is zero in exact
  /// arithmetic (a bias before a shift-invariant softmax) is rounding noise
  /// whose relative error means nothing.
  double atol = 1e-8;
  /// --dump: every rank writes the raw bytes of its output tiles after the
  /// checked steps to this path ("%r" replaced by the rank, otherwise
  /// ".rank<R>.bin" appended). Empty: no dump.
  std::string dump;
  /// --inputs, once per file: safetensors files or directories of .npy
  /// files the inputs are read from, by name; a tensor is taken from the one
  /// file that holds it (the weights of one, a decode step's state of
  /// another). Empty: every input from the seed.
  std::vector<std::string> inputs;
  /// --fill-missing: inputs the file lacks come from the seed.
  bool fillMissing = false;
  /// -v / --verbose: rank 0 names what computes the local products
  /// (summaRtKernelInfo) at the start.
  bool verbose = false;
  /// --outputs: where the outputs are written after the checked steps: a
  /// .safetensors file of whole tensors (by rank 0), else a sharded
  /// directory (each rank its own boxes). Empty: none.
  std::string outputs;
  /// --checkpoint DIR --save-every K: after every K-th step, the state the
  /// next step starts from (every input, updated ones included) is written
  /// to the sharded directory DIR/step<N>, which --inputs loads again.
  std::string checkpoint;
  int64_t saveEvery = 0;
  /// --expect: a safetensors file (or .npy directory) of the outputs the
  /// framework computed; each output is compared with it by name, like
  /// --check compares with the reference. Empty: none.
  std::string expect;
  /// --data: a token file (DataLoader.h) each step's batch is read from.
  /// Empty: none.
  std::string data;
  /// --data-inputs: the comma-separated inputs --data feeds. Empty: the
  /// integer inputs of rank 2.
  std::string dataInputs;
  /// --vocab V: --data ids must be below V (0: not checked).
  int64_t vocab = 0;
  /// --log-every K: a progress line every K steps; -1: every step with
  /// --data, none without.
  int64_t logEvery = -1;
  /// --metrics FILE: a JSON line per step (Metrics.h). Empty: none.
  std::string metrics;
  /// --tensorboard DIR: an event file of the same numbers. Empty: none.
  std::string tensorboard;
};

enum class ParseResult { Run, Help, Error };

/// Parses argv[1..argc) into `options`; on an invalid command line returns
/// ParseResult::Error with `error` saying why.
ParseResult parseOptions(int argc, char **argv, Options &options,
                         std::string &error);

/// Prints --help for `program` on `backend` to stdout.
void printUsage(const char *argv0, const SummaProgramDesc &program,
                const Backend &backend);

/// The rank the launcher gave this process. Options are parsed before MPI is
/// initialised (so that --help runs on any number of ranks), and this keeps
/// --help to one copy (an option error initialises MPI to say it once).
int launcherRank();

/// The value of option `name` given as argv[i] (`arg`): after its '=', or
/// the next argument (i is advanced past it). False, with `error` saying
/// so, when there is none.
bool optionValue(int argc, char **argv, int &i, const std::string &arg,
                 const std::string &name, std::string &value,
                 std::string &error);

/// Says an invalid command line's `error` once, on rank 0, with where to
/// find the usage: MPI is initialised for it if it is not yet, and every
/// rank waits for rank 0 to have said it (a rank that exits first makes
/// the launcher kill the job before the message is out). Returns the exit
/// status, 2.
int reportOptionError(int &argc, char **&argv, const char *argv0,
                      const std::string &error);

/// A decimal integer without a sign into `value`; false if `text` is not
/// one (or does not fit in 64 bits).
bool parseInt(const char *text, int64_t &value);
/// The same, unsigned.
bool parseUnsigned(const char *text, uint64_t &value);
/// A finite, non-negative number into `value`; false otherwise.
bool parseDouble(const char *text, double &value);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_OPTIONS_H
