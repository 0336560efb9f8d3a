//===- SummaFuzzTarget.cpp - libFuzzer target for the summa pipeline ------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Parses the input as MLIR and runs on it, each time on a fresh copy:
//
// - the pipeline summa-compile runs (buildSummaPipeline: summa-assign-layouts
//   {grid=q,q,d}, summa-partition, summa-expand-matmul, canonicalize,
//   summa-combine-collectives, then the lowering to the LLVM dialect with
//   convert-summa-to-runtime), for the grid of the input, without and with
//   summa-reuse-panels and summa-overlap;
// - summa-differentiate and then that pipeline, when the input mentions
//   "differentiate" (see `differentiate` below);
// - single passes on the inputs written for them (the seeds from their
//   tests): summa-expand-matmul on summa.matmul, summa-combine-collectives
//   on summa.all_reduce, summa-decompose-aggregates on linalg.softmax,
//   convert-summa-to-runtime on summa ops on memrefs, summa-overlap on
//   loops over memrefs, summa-reuse-panels on loops that broadcast,
//   summa-partition on IR
//   that carries summa.layout attributes;
// - --target=cuda's own passes: summa-materialize-splats on dense constants,
//   and on buffers contractions as GEMMs, the loop forms up to outlined
//   kernels and summa-verify-host-code.
//
// Diagnostics are swallowed: input that does not parse, does not verify or
// is rejected by a pass is fine. A crash, a sanitizer report, an assertion in
// summa's code (the fuzz build compiles it without NDEBUG), a
// report_fatal_error, a leak or a hang is a bug.
//
// Inputs that would trip a known crash of upstream MLIR are skipped
// (tripsKnownUpstreamCrash; docs/Reliability.md lists them).
//
// The grid is taken from the first "grid=A,B,C" in the input (so the seeds'
// RUN lines choose it and the fuzzer mutates it); without one it is [2,2,2].
//
// Environment (read once):
//   SUMMA_FUZZ_VERBOSE=1  print the diagnostics instead of swallowing them,
//                         and which runs succeeded (triage)
//   SUMMA_FUZZ_DIFFERENTIATE=0|1  run summa-differentiate or not
//
// Built two ways (fuzz/CMakeLists.txt): with -fsanitize=fuzzer as
// `summa-fuzz` (libFuzzer's main), and with ReplayMain.cpp as
// `summa-fuzz-replay`, which runs files and directories once each (the CI
// corpus replay; needs no libFuzzer).
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/InitAllSumma.h"
#include "summa/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

using namespace mlir;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
/// summa's code is instrumented, Debian's libMLIR is not, and both use the
/// same llvm::BumpPtrAllocator (attribute and type storage): the inline
/// allocator code in summa's objects poisons a new slab, libMLIR's copy
/// allocates from it without unpoisoning, and ASan reports a
/// use-after-poison that is not one. Manual poisoning off removes exactly
/// those reports; heap, stack and global checks stay.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
#endif
#endif

namespace {
DialectRegistry *registry = nullptr;
bool verbose = false;
/// Whether to run summa-differentiate (SUMMA_FUZZ_DIFFERENTIATE=0 turns it
/// off).
bool differentiate = true;

/// Parses "[-]digits" at `text`; advances `text` past it.
std::optional<int64_t> parseInt(llvm::StringRef &text) {
  text = text.ltrim();
  size_t length = 0;
  if (length < text.size() && text[length] == '-')
    ++length;
  size_t digits = length;
  while (length < text.size() && text[length] >= '0' && text[length] <= '9')
    ++length;
  if (length == digits || length - digits > 19)
    return std::nullopt;
  int64_t value = 0;
  if (text.substr(0, length).getAsInteger(10, value))
    return std::nullopt;
  text = text.drop_front(length).ltrim();
  return value;
}

/// Whether `input` would trip a known crash of upstream MLIR (not summa's
/// code), which would stop the fuzzer on the same bug again and again:
///
/// - MLIR 22's linalg parser (parseDenseI64ArrayAttr, used by
///   linalg.transpose `permutation = [...]` and linalg.broadcast/reduce
///   `dimensions = [...]`) stores the null attribute that a malformed array
///   parses to and dereferences it (SEGV in NamedAttrList::set).
bool tripsKnownUpstreamCrash(llvm::StringRef input) {
  for (llvm::StringRef keyword : {"permutation", "dimensions"}) {
    for (size_t at = input.find(keyword); at != llvm::StringRef::npos;
         at = input.find(keyword, at + 1)) {
      llvm::StringRef rest = input.drop_front(at + keyword.size()).ltrim();
      if (!rest.consume_front("="))
        continue;
      rest = rest.ltrim();
      // Well-formed: [] or [int (, int)*] with ints of at most 18 digits.
      if (!rest.consume_front("["))
        return true;
      rest = rest.ltrim();
      if (rest.consume_front("]"))
        continue;
      while (true) {
        if (!parseInt(rest))
          return true;
        rest = rest.ltrim();
        if (rest.consume_front("]"))
          break;
        if (!rest.consume_front(","))
          return true;
      }
    }
  }
  return false;
}

/// The first "grid=A,B,C" (A, B, C integers, possibly negative) in `input`.
SmallVector<int64_t, 3> gridOf(llvm::StringRef input) {
  for (size_t at = input.find("grid="); at != llvm::StringRef::npos;
       at = input.find("grid=", at + 1)) {
    llvm::StringRef rest = input.drop_front(at + 5);
    SmallVector<int64_t, 3> grid;
    for (int i = 0; i < 3; ++i) {
      std::optional<int64_t> value = parseInt(rest);
      if (!value)
        break;
      grid.push_back(*value);
      if (i < 2 && !rest.consume_front(","))
        break;
    }
    if (grid.size() == 3)
      return grid;
  }
  return {2, 2, 2};
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  // Upstream passes are needed by name: the lowering is a textual pipeline.
  summa::registerAllSummaPasses();
  registry = new DialectRegistry();
  summa::registerAllSummaDialects(*registry);
  if (const char *text = std::getenv("SUMMA_FUZZ_VERBOSE"))
    verbose = *text && std::strcmp(text, "0") != 0;
  if (const char *text = std::getenv("SUMMA_FUZZ_DIFFERENTIATE"))
    differentiate = *text && std::strcmp(text, "0") != 0;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!registry)
    LLVMFuzzerInitialize(nullptr, nullptr);
  // MLIR's lexer reads the byte after the buffer, expecting the NUL that
  // llvm::MemoryBuffer guarantees (mlir-opt reads files that way); libFuzzer's
  // buffer has none, so parse a NUL-terminated copy.
  std::string text(reinterpret_cast<const char *>(data), size);
  llvm::StringRef input(text.c_str(), size);

  // A fresh context per input: nothing carries over from one input to the
  // next, so every crash reproduces from its input alone.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler handler(&context, [](Diagnostic &diag) {
    if (verbose)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  if (tripsKnownUpstreamCrash(input))
    return 0;
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(input, config, "fuzz-input");
  if (!module)
    return 0;
  SmallVector<int64_t, 3> grid = gridOf(input);

  // Each run works on its own copy of the parsed module.
  auto run = [&](llvm::StringRef what, auto build) {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(&context);
    if (failed(build(pm)))
      return;
    bool ok = succeeded(pm.run(*copy));
    if (verbose)
      llvm::errs() << "summa-fuzz: " << what << ": "
                   << (ok ? "succeeded" : "failed") << "\n";
  };
  auto pipeline = [&](OpPassManager &pm) {
    summa::PipelineOptions options;
    options.grid.assign(grid.begin(), grid.end());
    summa::buildSummaPipeline(pm, options);
    return success();
  };
  auto textual = [&](llvm::StringRef passes) {
    return [passes](OpPassManager &pm) {
      std::string error;
      llvm::raw_string_ostream os(error);
      // A pass that this build does not have is skipped.
      return parsePassPipeline(passes, pm, os);
    };
  };

  // The pipeline that summa-compile runs, for the grid of the input, and
  // with --reuse-panels --overlap.
  run("summa-pipeline", pipeline);
  run("summa-pipeline{reuse-panels overlap}", [&](OpPassManager &pm) {
    summa::PipelineOptions options;
    options.grid.assign(grid.begin(), grid.end());
    options.lower.overlap = true;
    options.memoryBudget = -1;
    summa::buildSummaPipeline(pm, options);
    return success();
  });
  // Inputs written for one pass (the seeds from its tests) get that pass
  // alone, since the pipeline would stop before it.
  if (differentiate && input.contains("differentiate"))
    run("summa-differentiate + summa-pipeline", [&](OpPassManager &pm) {
      if (failed(textual("summa-differentiate")(pm)))
        return failure();
      return pipeline(pm);
    });
  if (input.contains("summa.matmul"))
    run("summa-expand-matmul", textual("summa-expand-matmul,canonicalize"));
  if (input.contains("summa.all_reduce"))
    run("summa-combine-collectives", textual("summa-combine-collectives"));
  if (input.contains("linalg.softmax"))
    run("summa-decompose-aggregates", textual("summa-decompose-aggregates"));
  if (input.contains("memref<") && input.contains("summa."))
    run("convert-summa-to-runtime", textual("convert-summa-to-runtime"));
  if (input.contains("scf.for") && input.contains("memref<") &&
      input.contains("root"))
    run("summa-overlap", textual("summa-overlap{remarks},canonicalize,"
                                 "convert-summa-to-runtime"));
  if (input.contains("scf.for") && input.contains("summa.broadcast"))
    run("summa-reuse-panels", textual("summa-reuse-panels{remarks}"));
  if (input.contains("summa.layout"))
    run("summa-partition", textual("summa-partition,summa-expand-matmul,"
                                   "canonicalize"));
  // --target=cuda's passes up to the kernels (the NVVM binary needs the
  // CUDA toolkit and is upstream's): on tensors, splat constants; on
  // buffers, contractions as GEMMs, the loop forms, kernel outlining and
  // the host-code check.
  if (input.contains("dense<"))
    run("summa-materialize-splats", textual("summa-materialize-splats"));
  if (input.contains("memref<"))
    run("convert-contractions-to-runtime ... summa-verify-host-code",
        textual("convert-contractions-to-runtime,summa-prepare-device-ops,"
                "convert-linalg-to-parallel-loops,"
                "summa-map-parallel-loops{block-size=7},"
                "convert-parallel-loops-to-gpu,gpu-kernel-outlining,"
                "summa-verify-host-code"));
  return 0;
}
