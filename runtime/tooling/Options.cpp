//===- Options.cpp - the command line of a compiled program -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Parsing of summaRtMain's command line (values, ranges, the options that
// go together) and the text of --help.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "Backend.h"

#include <mpi.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace summa::rt;
using namespace summa::rt::driver;

int summa::rt::driver::launcherRank() {
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                           "MV2_COMM_WORLD_RANK", "SLURM_PROCID"})
    if (const char *value = std::getenv(name))
      return std::atoi(value);
  return 0;
}

bool summa::rt::driver::parseInt(const char *text, int64_t &value) {
  if (!*text || *text == '-' || *text == '+')
    return false;
  char *end = nullptr;
  errno = 0;
  long long parsed = std::strtoll(text, &end, 10);
  if (errno || *end)
    return false;
  value = parsed;
  return true;
}

bool summa::rt::driver::parseUnsigned(const char *text, uint64_t &value) {
  if (!*text || *text == '-' || *text == '+')
    return false;
  char *end = nullptr;
  errno = 0;
  unsigned long long parsed = std::strtoull(text, &end, 10);
  if (errno || *end)
    return false;
  value = parsed;
  return true;
}

bool summa::rt::driver::parseDouble(const char *text, double &value) {
  char *end = nullptr;
  errno = 0;
  double parsed = std::strtod(text, &end);
  if (!*text || errno || *end || !std::isfinite(parsed) || parsed < 0)
    return false;
  value = parsed;
  return true;
}

namespace {
/// PATTERN=T of --tol: a shell pattern and a non-negative number.
bool parseNamedTol(const std::string &text,
                   std::vector<std::pair<std::string, double>> &tols) {
  size_t eq = text.rfind('=');
  double tol = 0;
  if (eq == 0 || !parseDouble(text.c_str() + eq + 1, tol))
    return false;
  tols.push_back({text.substr(0, eq), tol});
  return true;
}
} // namespace

bool summa::rt::driver::optionValue(int argc, char **argv, int &i,
                                    const std::string &arg,
                                    const std::string &name, std::string &value,
                                    std::string &error) {
  if (name.size() < arg.size()) {
    value = arg.substr(name.size() + 1);
    return true;
  }
  if (i + 1 < argc) {
    value = argv[++i];
    return true;
  }
  error = "option '" + name + "' needs a value";
  return false;
}

int summa::rt::driver::reportOptionError(int &argc, char **&argv,
                                         const char *argv0,
                                         const std::string &error) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised)
    MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::fprintf(stderr, "summa: %s; run %s --help for usage\n", error.c_str(),
                 argv0);
    std::fflush(stderr);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 2;
}

ParseResult summa::rt::driver::parseOptions(int argc, char **argv,
                                            Options &options,
                                            std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h")
      return ParseResult::Help;
    if (arg == "--check") {
      options.check = true;
      continue;
    }
    if (arg == "--gradcheck") {
      options.gradcheck = true;
      continue;
    }
    if (arg == "--exact-replicas") {
      options.exactReplicas = true;
      continue;
    }
    if (arg == "--fill-missing") {
      options.fillMissing = true;
      continue;
    }
    if (arg == "-v" || arg == "--verbose") {
      options.verbose = true;
      continue;
    }
    std::string name = arg.substr(0, arg.find('='));
    bool isPath = name == "--dump" || name == "--inputs" ||
                  name == "--outputs" || name == "--checkpoint" ||
                  name == "--expect" || name == "--data" ||
                  name == "--data-inputs" || name == "--metrics" ||
                  name == "--tensorboard";
    if (!isPath && name != "--iters" && name != "--seed" && name != "--tol" &&
        name != "--atol" && name != "--steps" && name != "--save-every" &&
        name != "--log-every" && name != "--vocab" &&
        name != "--gradcheck-dirs" && name != "--gradcheck-tol") {
      error = "unknown option '" + arg + "'";
      return ParseResult::Error;
    }
    std::string value;
    if (!optionValue(argc, argv, i, arg, name, value, error))
      return ParseResult::Error;
    if (isPath) {
      if (value.empty()) {
        error = "option '" + name + "' needs a file name";
        return ParseResult::Error;
      }
      if (name == "--inputs") {
        options.inputs.push_back(value);
        continue;
      }
      (name == "--dump"          ? options.dump
       : name == "--outputs"     ? options.outputs
       : name == "--expect"      ? options.expect
       : name == "--data"        ? options.data
       : name == "--data-inputs" ? options.dataInputs
       : name == "--metrics"     ? options.metrics
       : name == "--tensorboard" ? options.tensorboard
                                 : options.checkpoint) = value;
      continue;
    }
    bool valid =
        name == "--iters" ? parseInt(value.c_str(), options.iters)
        : name == "--steps"
            ? parseInt(value.c_str(), options.steps) && options.steps >= 1
        : name == "--save-every" ? parseInt(value.c_str(), options.saveEvery) &&
                                       options.saveEvery >= 1
        : name == "--log-every"  ? parseInt(value.c_str(), options.logEvery)
        : name == "--vocab"
            ? parseInt(value.c_str(), options.vocab) && options.vocab >= 1
        : name == "--gradcheck-dirs"
            ? parseInt(value.c_str(), options.gradcheckDirections) &&
                  options.gradcheckDirections >= 1
        : name == "--gradcheck-tol"
            ? parseDouble(value.c_str(), options.gradcheckTol)
        : name == "--seed" ? parseUnsigned(value.c_str(), options.seed)
        : name == "--atol" ? parseDouble(value.c_str(), options.atol)
        : value.find('=') != std::string::npos
            ? parseNamedTol(value, options.namedTols)
            : parseDouble(value.c_str(), options.tol);
    if (!valid) {
      error = "invalid value '" + value + "' for " + name + " (expected " +
              (name == "--tol" || name == "--atol" || name == "--gradcheck-tol"
                   ? "a non-negative number"
               : name == "--steps" || name == "--save-every" ||
                       name == "--vocab" || name == "--gradcheck-dirs"
                   ? "a positive integer"
                   : "a non-negative integer") +
              ")";
      return ParseResult::Error;
    }
  }
  if (options.checkpoint.empty() != (options.saveEvery == 0)) {
    error = "--checkpoint DIR and --save-every K go together";
    return ParseResult::Error;
  }
  return ParseResult::Run;
}

void summa::rt::driver::printUsage(const char *argv0,
                                   const SummaProgramDesc &program,
                                   const Backend &backend) {
  long long q = program.q, d = program.d;
  std::printf(
      "usage: %s [--iters N] [--check] [--steps N] [--exact-replicas] "
      "[--seed S]\n"
      "       [--tol T] [--atol A] [--dump FILE] [--inputs FILE] "
      "[--fill-missing]\n"
      "       [--outputs PATH] [--expect FILE] [--checkpoint DIR --save-every "
      "K]\n"
      "       [--data FILE [--data-inputs A[,B]] [--vocab V]] [--log-every K]\n"
      "       [--metrics FILE] [--tensorboard DIR]\n"
      "       [--gradcheck [--gradcheck-dirs N] [--gradcheck-tol T]] "
      "[-v] [--help]\n"
      "\n"
      "Runs the summa program '%s', compiled for the grid [%lld,%lld,%lld]%s; "
      "launch it as\n"
      "  mpirun -np %lld %s [options]\n"
      "\n"
      "options:\n"
      "  --iters N  time N calls after one warm-up call (default 1; 0: no "
      "timing)\n"
      "  --check    compare the outputs of the first call with the "
      "unpartitioned\n"
      "             reference run on rank 0; exit status 1 if they differ\n"
      "  --gradcheck  a derived training step: compare the gradients its "
      "derivative\n"
      "             rules give with central finite differences of its loss "
      "(both\n"
      "             unpartitioned on rank 0, in f64) along N random "
      "directions per\n"
      "             parameter (--gradcheck-dirs, default 2); exit status 1 "
      "past\n"
      "             --gradcheck-tol (default 1e-5)\n"
      "  --steps N  run N steps before checking; outputs that update an "
      "input\n"
      "             (new weights, optimizer state) replace it for the next "
      "step\n"
      "  --exact-replicas  --check also fails unless every rank holding "
      "the same\n"
      "             block of an output (e.g. depth replicas of a weight) "
      "agrees bit for bit\n"
      "  --seed S   seed of the input values (default 42)\n"
      "  --atol A   an output within A of the reference everywhere passes "
      "(default\n"
      "             1e-8; for outputs that are zero in exact arithmetic)\n"
      "  --tol NAME=T  the tolerance of the outputs whose name matches the\n"
      "             shell pattern NAME (e.g. '*.c_attn.bias=1e-2'), before "
      "--tol\n"
      "  --tol T    tolerance of --check on ||y - ref||_2 / ||ref||_2 "
      "(default 1e-5;\n"
      "             5e-3 for f16 and 3e-2 for bf16 outputs)\n"
      "  --dump FILE  every rank writes the raw bytes of its output tiles "
      "(in output\n"
      "             order, after the checked steps) to FILE.rank<R>.bin, or "
      "to FILE\n"
      "             with %%r replaced by R: compare two runs bit for bit\n"
      "  --inputs FILE  read the inputs from FILE (safetensors, or a "
      "directory of\n"
      "             <name>.npy files) by name: the function's argument names "
      "(summa.name),\n"
      "             else arg<N>; each rank reads only its tiles. Shapes and "
      "element\n"
      "             types must match; a missing input is an error. "
      "--inputs given\n"
      "             again adds a file (a tensor in two of them is an "
      "error): the\n"
      "             weights and a derived decode step's state\n"
      "  --fill-missing  inputs FILE lacks come from the seed\n"
      "  -v, --verbose  name what computes the local products at the start "
      "(the BLAS,\n"
      "             its kernel set and how it was chosen; the GPU)\n"
      "  --outputs PATH  write the outputs after the checked steps: "
      "PATH.safetensors\n"
      "             whole (gathered on rank 0), any other PATH a directory "
      "each rank\n"
      "             writes its own boxes to (summa-ckpt makes it one "
      "file); an output\n"
      "             that updates an input takes its name\n"
      "  --expect FILE  compare the outputs after the checked steps with "
      "FILE's tensors\n"
      "             of the same names (e.g. the framework's outputs), with "
      "--tol and --atol;\n"
      "             exit status 1 if one differs\n"
      "  --checkpoint DIR --save-every K  after every K-th step write the "
      "next step's\n"
      "             inputs to DIR/step<N>, each rank its own boxes; --inputs "
      "resumes\n"
      "             from it on any grid (a training run continues with the "
      "batches\n"
      "             of step N+1)\n"
      "  --data FILE  train on token ids from FILE (raw uint16 as nanoGPT's "
      "prepare.py\n"
      "             writes, or a 1-D integer .npy): every step reads a new "
      "batch of\n"
      "             rows, drawn by --seed, into the integer [rows, seq] inputs "
      "(tokens,\n"
      "             then next tokens); each rank reads only its tiles' ids\n"
      "  --data-inputs A[,B]  the inputs --data feeds, by name\n"
      "  --vocab V  --data: an id outside [0, V) is an error (default: only "
      "negative ids)\n"
      "  --log-every K  print step, loss, tokens/s and ms/step every K steps "
      "(default:\n"
      "             every step with --data, never without; 0: never)\n"
      "  --metrics FILE  rank 0 writes a JSON object per step to FILE, a "
      "line each: step,\n"
      "             loss, lr, grad_norm, tokens/s, ms/step, bytes per "
      "collective kind,\n"
      "             peak RSS (a resumed run keeps the lines up to its "
      "checkpoint's step)\n"
      "  --tensorboard DIR  rank 0 writes the same as TensorBoard scalars "
      "to an event\n"
      "             file in DIR\n"
      "  --help     print this message\n"
      "\n"
      "environment:\n"
      "  SUMMA_PROFILE=path  write each rank's collective and matmul "
      "counters as JSON\n"
      "                      to path.rank<R>.json (or to path with %%r "
      "replaced by R)\n"
      "  SUMMA_KILL_AT=R:S[:checkpoint]  a testing aid: rank R kills itself "
      "(SIGKILL)\n"
      "                      before step S, or while it writes the "
      "checkpoint of step S;\n"
      "                      ignored when SUMMA_RESTART_COUNT (set by "
      "summa-run) is not 0\n"
      "%s",
      argv0, program.name ? program.name : "(unnamed)", q, q, d,
      backend.usageWhere, q * q * d, argv0, backend.usageEnvironment);
  std::fflush(stdout);
}
