//===- Compile.cpp - a model to a distributed binary ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// compileModel: the phases of summa-compile in order, each a method of
// Compiler, which holds the options and the timing scope. The pass
// pipelines come from lib/Pipelines; the program description and the
// generated main from Program.cpp and GeneratedMain.cpp; machine code from
// MachineCode.cpp.
//
//===----------------------------------------------------------------------===//

#include "summa/Driver/Driver.h"

#include "MachineCode.h"
#include "Program.h"
#include "SaveConstants.h"

#include "summa/Codegen/Passes.h"
#include "summa/Dialect/Summa/IR/GradcheckAttr.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Pipelines/Pipelines.h"
#include "summa/Planner/Planner.h"
#include "summa/Transforms/Generation.h"
#include "summa/Transforms/LiftConstants.h"
#include "summa/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::driver;

namespace {
/// What --target (and --gpu-loops-on-host) select: the runtime library to
/// link and, for kernels, how to build them.
struct Target {
  std::string runtimeLib;
  std::optional<CudaOptions> cuda;
};

/// --check's reference: a copy of the input (before partitioning) or
/// --reference-file, whose function (--reference, else the entry's name or
/// the file's only public one) must have the entry's type.
struct Reference {
  OwningOpRef<ModuleOp> module;
  /// The reference function in `module`.
  std::string function;
};

class Compiler {
public:
  Compiler(MLIRContext &context, const CompileOptions &options)
      : context(context), options(options) {}
  LogicalResult compile(llvm::SourceMgr &sourceMgr);

private:
  LogicalResult runPasses(ModuleOp module, StringRef phase,
                          function_ref<void(OpPassManager &)> build);
  FailureOr<Target> chooseTarget();
  FailureOr<SmallVector<int64_t>> chooseGrid(ModuleOp module,
                                             func::FuncOp entry);
  FailureOr<Reference> loadReference(ModuleOp input, func::FuncOp entry);
  LogicalResult loadGradcheck(ModuleOp input, func::FuncOp entry,
                              OwningOpRef<ModuleOp> &functions,
                              std::optional<GradcheckInfo> &info);
  bool promoteToF64(ModuleOp module, StringRef phase, StringRef what);
  std::unique_ptr<llvm::Module>
  lowerBoth(OwningOpRef<ModuleOp> spmd, OwningOpRef<ModuleOp> reference,
            OwningOpRef<ModuleOp> gradcheck, const ProgramInfo &program,
            const Target &t, llvm::LLVMContext &llvmContext);
  LogicalResult writeBinary(llvm::Module &llvmModule,
                            const ProgramInfo &program, ArrayRef<int64_t> grid,
                            const Target &t);
  LogicalResult linkExecutable(llvm::Module &llvmModule, const Target &t,
                               function_ref<void(raw_ostream &)> writeMainCpp);
  void buildSpmdLowering(OpPassManager &pm, const ProgramInfo &program,
                         const Target &t);
  std::unique_ptr<llvm::Module> compileStep(ModuleOp module, StringRef fn,
                                            ArrayRef<int64_t> grid,
                                            const Target &t,
                                            llvm::LLVMContext &llvmContext,
                                            ProgramInfo &program);
  LogicalResult compileGenerator(ModuleOp module, func::FuncOp forward,
                                 ArrayRef<int64_t> grid, const Target &t);
  LogicalResult writeOutput(function_ref<void(raw_ostream &)> print);
  /// --emit=lib: writes `print` to the library's header (the output with
  /// the extension .h).
  LogicalResult writeHeader(function_ref<void(raw_ostream &)> print);

  MLIRContext &context;
  const CompileOptions &options;
};
} // namespace

/// An error of the LLVM back end as summa-compile's diagnostic.
static LogicalResult check(llvm::Error error) {
  if (!error)
    return success();
  return fail(llvm::toString(std::move(error)));
}

/// Runs the passes `build` adds on `module`; `phase` names them in the
/// --mlir-timing report.
LogicalResult Compiler::runPasses(ModuleOp module, StringRef phase,
                                  function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  // --mlir-print-ir-*, --mlir-timing and the other pass-manager options
  // apply to every pipeline summa-compile runs.
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  // A scope per phase: pass managers that reuse the memory of an earlier
  // one's passes must not add to its timers.
  std::optional<TimingScope> scope;
  if (options.timing) {
    scope = options.timing->nest(phase);
    pm.enableTiming(*scope);
  }
  build(pm);
  return pm.run(module);
}

FailureOr<Target> Compiler::chooseTarget() {
  Target t;
  t.runtimeLib = options.runtime.cpuLibrary;
  StringRef target = options.target;
  if (options.testAfterKernelLoops && !options.gpuLoopsOnHost &&
      target != "cuda")
    return fail("passes after the kernel loops need --gpu-loops-on-host or "
                "--target=cuda");
  if (options.gpuBlockSize < 1 || options.gpuBlockSize > 1024)
    return fail("--gpu-block-size must be in [1, 1024]");
  if (target == "cpu" && !options.gpuLoopsOnHost)
    return t;
  if (target == "cpu") {
    t.cuda.emplace();
    t.cuda->loopsOnHost = true;
  } else if (target == "cuda") {
    if (options.runtime.cudaLibrary.empty())
      return fail("--target=cuda: this build has no GPU backend (nvcc was "
                  "not found when it was configured); use --target=cpu");
    t.runtimeLib = options.runtime.cudaLibrary;
    t.cuda.emplace();
    t.cuda->chip = options.cudaChip;
    t.cuda->toolkit = options.cudaToolkit.empty() ? options.runtime.cudaToolkit
                                                  : options.cudaToolkit;
    if (!StringRef(t.cuda->chip).starts_with("sm_"))
      return fail("--cuda-chip must name an architecture such as sm_80 or "
                  "sm_90, got '" +
                  t.cuda->chip + "'");
  } else {
    return fail("unknown --target '" + target + "' (expected cpu or cuda)");
  }
  t.cuda->blockSize = options.gpuBlockSize;
  // -O0 compiles the kernels without optimisation too; any other level at
  // NVVM's and ptxas's -O3.
  t.cuda->optLevel = options.optLevel == 0 ? 0 : 3;
  t.cuda->afterKernelLoops = options.testAfterKernelLoops;
  return t;
}

/// --grid: q,q,d, or the planner's best grid of --ranks for `entry`.
FailureOr<SmallVector<int64_t>> Compiler::chooseGrid(ModuleOp module,
                                                     func::FuncOp entry) {
  SmallVector<int64_t> grid;
  if (options.grid == "auto") {
    if (options.ranks <= 0)
      return fail("--grid=auto needs --ranks=P");
    plan::PlanOptions planOptions;
    planOptions.ranks = options.ranks;
    planOptions.entry = entry.getSymName().str();
    FailureOr<plan::Plan> plan = plan::planModule(module, planOptions);
    if (failed(plan))
      return failure();
    if (plan->best < 0)
      return fail("--grid=auto: no grid of " + std::to_string(options.ranks) +
                  " ranks can partition the model (summa-plan tells why)");
    grid.assign(plan->strategies[plan->best].grid.begin(),
                plan->strategies[plan->best].grid.end());
    llvm::errs() << "summa-compile: --grid=auto picked [" << grid[0] << ","
                 << grid[1] << "," << grid[2] << "]: " << plan->reason << "\n";
    return grid;
  }
  for (StringRef part : llvm::split(StringRef(options.grid), ',')) {
    int64_t v;
    if (part.trim().getAsInteger(10, v))
      return fail("--grid must be q,q,d with q >= 1 and d >= 1, or auto");
    grid.push_back(v);
  }
  if (!isGridShape(grid))
    return fail("--grid must be q,q,d with q >= 1 and d >= 1, or auto");
  return grid;
}

FailureOr<Reference> Compiler::loadReference(ModuleOp input,
                                             func::FuncOp entry) {
  OwningOpRef<ModuleOp> reference;
  if (options.referenceFile.empty()) {
    reference = input.clone();
  } else {
    llvm::SourceMgr refSources;
    reference = parseSourceFile<ModuleOp>(options.referenceFile, refSources,
                                          ParserConfig(&context));
    if (!reference)
      return fail("cannot parse the reference file '" + options.referenceFile +
                  "'");
    if (failed(
            runPasses(*reference, "import the reference", buildImportPipeline)))
      return failure();
  }
  StringRef refName = !options.referenceName.empty()
                          ? StringRef(options.referenceName)
                      : options.referenceFile.empty() ? entry.getSymName()
                                                      : StringRef();
  func::FuncOp refEntry = findEntry(*reference, refName);
  if (!refEntry)
    return failure();
  if (refEntry.getFunctionType() != entry.getFunctionType())
    return refEntry.emitError()
           << "the reference function's type " << refEntry.getFunctionType()
           << " differs from the entry's " << entry.getFunctionType();
  std::string function = refEntry.getSymName().str();
  return Reference{std::move(reference), std::move(function)};
}

/// --gradcheck's functions (summa.gradcheck on `entry`): copies of the
/// loss and gradients' functions in `functions`, described in `info`; none
/// where the entry has no summa.gradcheck or with --gradcheck=false. The
/// attribute is taken off the entry (nothing else compiles those functions).
LogicalResult Compiler::loadGradcheck(ModuleOp input, func::FuncOp entry,
                                      OwningOpRef<ModuleOp> &functions,
                                      std::optional<GradcheckInfo> &info) {
  std::optional<GradcheckFunctions> names = getGradcheckFunctions(entry);
  entry->removeAttr(kGradcheckAttrName);
  if (!names || !options.gradcheck)
    return success();
  auto loss = input.lookupSymbol<func::FuncOp>(names->loss);
  auto gradients = input.lookupSymbol<func::FuncOp>(names->gradients);
  for (auto [fn, name] :
       {std::pair(loss, names->loss), std::pair(gradients, names->gradients)})
    if (!fn || fn.isDeclaration())
      return entry.emitError() << "'" << kGradcheckAttrName << "' names @"
                               << name << ", which the module does not define";
  // The loss function reads the step's leading arguments; the gradients'
  // function the same ones, and returns the loss and one gradient per
  // parameter, of the parameter's type.
  ArrayRef<Type> args = loss.getArgumentTypes();
  auto mismatch = [&](const Twine &why) {
    return entry.emitError() << "'" << kGradcheckAttrName
                             << "' does not fit this function: " << why;
  };
  if (args.size() > entry.getNumArguments() ||
      args != entry.getArgumentTypes().take_front(args.size()))
    return mismatch("@" + names->loss + "'s arguments are not its first ones");
  if (loss.getNumResults() == 0 || gradients.getArgumentTypes() != args ||
      gradients.getNumResults() != names->params.size() + 1 ||
      gradients.getResultTypes()[0] != loss.getResultTypes()[0])
    return mismatch("@" + names->gradients + " does not take @" + names->loss +
                    "'s arguments and return its loss and " +
                    Twine(names->params.size()) + " gradients");
  GradcheckInfo described;
  described.numInputs = args.size();
  for (auto [i, param] : llvm::enumerate(names->params)) {
    if (param < 0 || param >= static_cast<int64_t>(args.size()) ||
        gradients.getResultTypes()[i + 1] != args[param])
      return mismatch("gradient " + Twine(i) + " is not of argument " +
                      Twine(param) + "'s type");
    described.params.push_back(param);
    auto padding =
        gradients.getArgAttrOfType<IntegerAttr>(param, kPaddingIndexAttrName);
    described.frozenRows.push_back(padding ? padding.getInt() : -1);
  }
  for (auto [i, type] : llvm::enumerate(loss.getResultTypes())) {
    FailureOr<TensorInfo> t =
        describeWhole(loss, type, "loss_result" + std::to_string(i));
    if (failed(t))
      return failure();
    described.lossOutputs.push_back(*t);
  }
  functions = ModuleOp::create(input.getLoc());
  for (func::FuncOp fn : {loss, gradients}) {
    auto copy = cast<func::FuncOp>(fn->clone());
    copy->removeAttr(kGradcheckAttrName);
    copy.setPublic();
    functions->getBody()->push_back(copy);
  }
  renameFunctions(*functions, "__gradcheck");
  described.loss = (names->loss + "__gradcheck").str();
  described.gradients = (names->gradients + "__gradcheck").str();
  described.f64 = promoteToF64(*functions, "--gradcheck's functions in f64",
                               "--gradcheck's functions compute");
  info = std::move(described);
  return success();
}

/// `module` in f64 (summa-promote-floats, the timing phase `phase`) where
/// it allows it; otherwise in its own types, with the reason as a warning
/// that starts with `what`.
bool Compiler::promoteToF64(ModuleOp module, StringRef phase, StringRef what) {
  std::string why;
  bool promoted;
  {
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
      if (why.empty()) {
        llvm::raw_string_ostream os(why);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    promoted = succeeded(runPasses(module, phase, [](OpPassManager &pm) {
      pm.addPass(createSummaPromoteFloats());
    }));
  }
  if (!promoted)
    llvm::errs() << "summa-compile: warning: " << what
                 << " in the model's own element types: " << why << "\n";
  return promoted;
}

/// The partitioned program's lowering to LLVM for `t`, its entry's
/// arguments packed for the runtime.
void Compiler::buildSpmdLowering(OpPassManager &pm, const ProgramInfo &program,
                                 const Target &t) {
  LowerOptions lower;
  lower.overlap = options.overlap;
  lower.cuda = t.cuda ? &*t.cuda : nullptr;
  lower.remarks = options.remarks;
  lower.packArguments.push_back(program.entry + "__spmd");
  buildLowerToLLVMPipeline(pm, lower);
}

/// `module` as LLVM IR named `name`; null after an error.
static std::unique_ptr<llvm::Module>
translate(ModuleOp module, llvm::LLVMContext &llvmContext, StringRef name) {
  std::unique_ptr<llvm::Module> translated =
      translateModuleToLLVMIR(module, llvmContext, name);
  if (!translated)
    (void)fail("translation to LLVM IR failed");
  return translated;
}

/// The modules to LLVM IR: the partitioned one for `t`, the reference and
/// --gradcheck's functions (if any) through buildReferenceLoweringPipeline
/// on every target. Returns them linked into one module. One module at a
/// time is lowered, translated and freed (peak memory).
std::unique_ptr<llvm::Module>
Compiler::lowerBoth(OwningOpRef<ModuleOp> spmd, OwningOpRef<ModuleOp> reference,
                    OwningOpRef<ModuleOp> gradcheck, const ProgramInfo &program,
                    const Target &t, llvm::LLVMContext &llvmContext) {
  auto lowerOne = [&](OwningOpRef<ModuleOp> owner, StringRef phase,
                      StringRef name, function_ref<void(OpPassManager &)> build)
      -> std::unique_ptr<llvm::Module> {
    if (failed(runPasses(*owner, phase, build)))
      return nullptr;
    return translate(*owner, llvmContext, name);
  };
  std::unique_ptr<llvm::Module> llvmModule =
      lowerOne(std::move(spmd), "lower", "summa_spmd",
               [&](OpPassManager &pm) { buildSpmdLowering(pm, program, t); });
  if (!llvmModule)
    return nullptr;
  std::unique_ptr<llvm::Module> llvmRef = lowerOne(
      std::move(reference), "lower the reference", "summa_ref",
      [&](OpPassManager &pm) {
        buildReferenceLoweringPipeline(pm, {program.reference + "__ref"});
      });
  if (!llvmRef)
    return nullptr;
  if (llvm::Linker::linkModules(*llvmModule, std::move(llvmRef))) {
    (void)fail("linking the partitioned and reference modules failed");
    return nullptr;
  }
  if (!gradcheck)
    return llvmModule;
  std::unique_ptr<llvm::Module> llvmCheck = lowerOne(
      std::move(gradcheck), "lower --gradcheck's functions", "summa_gradcheck",
      [&](OpPassManager &pm) {
        buildReferenceLoweringPipeline(
            pm, {program.gradcheck->loss, program.gradcheck->gradients});
      });
  if (!llvmCheck ||
      llvm::Linker::linkModules(*llvmModule, std::move(llvmCheck))) {
    (void)fail("linking --gradcheck's functions failed");
    return nullptr;
  }
  return llvmModule;
}

/// --emit=exe or lib: the object, the generated main (and, for a library,
/// its header), linked against the runtime.
LogicalResult Compiler::writeBinary(llvm::Module &llvmModule,
                                    const ProgramInfo &program,
                                    ArrayRef<int64_t> grid, const Target &t) {
  bool library = options.emit == EmitKind::Lib;
  if (library && failed(writeHeader([&](raw_ostream &os) {
        writeLibraryHeader(os, program, grid, options.output);
      })))
    return failure();
  return linkExecutable(llvmModule, t, [&](raw_ostream &os) {
    writeMain(os, program, grid, library);
  });
}

/// The model's objects (its loop nests, its glue; MachineCode.h) and the
/// main `writeMainCpp` writes, linked against the runtime into the output
/// (a shared library with --emit=lib).
LogicalResult
Compiler::linkExecutable(llvm::Module &llvmModule, const Target &t,
                         function_ref<void(raw_ostream &)> writeMainCpp) {
  SmallString<128> objPath, gluePath, mainPath;
  for (auto [path, stem, ext] : {std::tuple(&objPath, "summa-model", "o"),
                                 std::tuple(&gluePath, "summa-glue", "o"),
                                 std::tuple(&mainPath, "summa-main", "cpp")})
    if (auto ec = llvm::sys::fs::createTemporaryFile(stem, ext, *path))
      return fail("cannot create a temporary file: " + ec.message());
  llvm::scope_exit cleanUp([&] {
    if (options.keepTemps) {
      llvm::errs() << "summa-compile: kept " << mainPath << ", " << objPath
                   << " and " << gluePath << "\n";
      return;
    }
    for (StringRef path : {objPath, gluePath, mainPath})
      llvm::sys::fs::remove(path);
  });
  SmallVector<std::string> objects;
  if (failed(check(compile::emitSplitObjects(llvmModule, options.optLevel,
                                             objPath, gluePath, objects))))
    return failure();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(mainPath, ec);
    if (ec)
      return fail("cannot write " + mainPath + ": " + ec.message());
    writeMainCpp(os);
  }
  return link(mainPath, objects, options.output, t.runtimeLib,
              options.runtime.includeDir, options.emit == EmitKind::Lib,
              options.verbose);
}

/// One step of a generator: `fn` of a copy of `module` laid out on `grid`,
/// described into `program`, partitioned and lowered to LLVM IR (no --check
/// reference: each step is checked alone by compiling it as an entry).
std::unique_ptr<llvm::Module>
Compiler::compileStep(ModuleOp module, StringRef fn, ArrayRef<int64_t> grid,
                      const Target &t, llvm::LLVMContext &llvmContext,
                      ProgramInfo &program) {
  OwningOpRef<ModuleOp> step = module.clone();
  std::string name = fn.str();
  keepOnlyFunctions(*step, {name});
  if (failed(runPasses(*step, "assign layouts (" + name + ")",
                       [&](OpPassManager &pm) {
                         SummaAssignLayoutsOptions assign;
                         assign.grid.assign(grid.begin(), grid.end());
                         buildAssignLayoutsPipeline(pm, assign, options.zero);
                       })))
    return nullptr;
  FailureOr<ProgramInfo> described =
      describeProgram(step->lookupSymbol<func::FuncOp>(name),
                      /*halfTypes=*/options.target == "cuda");
  if (failed(described))
    return nullptr;
  program = std::move(*described);
  if (failed(
          runPasses(*step, "partition (" + name + ")", [&](OpPassManager &pm) {
            buildPartitionPipeline(pm, options.reuseBudget);
          })))
    return nullptr;
  renameFunctions(*step, "__spmd");
  if (failed(runPasses(*step, "lower (" + name + ")", [&](OpPassManager &pm) {
        buildSpmdLowering(pm, program, t);
      })))
    return nullptr;
  return translate(*step, llvmContext, "summa_" + name);
}

/// --generate: the prefill and the decode step derived from `forward`, each
/// compiled for `grid`, in one executable whose main hands both to
/// summaRtGenerate.
LogicalResult Compiler::compileGenerator(ModuleOp module, func::FuncOp forward,
                                         ArrayRef<int64_t> grid,
                                         const Target &t) {
  if (options.emit != EmitKind::Exe && options.emit != EmitKind::Lib)
    return fail("--generate builds an executable (--emit=exe) or a library "
                "(--emit=lib)");
  auto ids = dyn_cast<RankedTensorType>(
      forward.getNumArguments() ? forward.getArgumentTypes()[0] : Type());
  if (!ids || ids.getRank() != 2 || !ids.hasStaticShape())
    return forward.emitError()
           << "--generate: argument 0 must be the token ids [batch, sequence]";
  int64_t maxLength = ids.getDimSize(1);
  std::string name = forward.getSymName().str();
  if (failed(runPasses(module, "derive generation", [&](OpPassManager &pm) {
        pm.addPass(createSummaDeriveGeneration(
            generatorDerivation(name, options.promptLength)));
      })))
    return failure();
  // A short prompt's prefill moves less with the weights in place (the
  // decode step's form) than with SUMMA's weight panels: the planner's
  // prediction of both forms on this grid decides.
  plan::PlanOptions planOptions;
  planOptions.ranks = grid[0] * grid[1] * grid[2];
  planOptions.grid = SmallVector<int64_t, 3>(grid);
  FailureOr<plan::PrefillForms> forms =
      plan::planPrefillForms(module, name + "_prefill", planOptions);
  if (failed(forms))
    return failure();
  if (forms->prefersStationary(grid))
    module.lookupSymbol<func::FuncOp>(name + "_prefill")
        ->setAttr(kWeightStationaryAttrName,
                  UnitAttr::get(module.getContext()));
  llvm::LLVMContext llvmContext;
  ProgramInfo prefill, decode;
  std::unique_ptr<llvm::Module> llvmModule =
      compileStep(module, name + "_prefill", grid, t, llvmContext, prefill);
  if (!llvmModule)
    return failure();
  std::unique_ptr<llvm::Module> decodeModule =
      compileStep(module, name + "_decode", grid, t, llvmContext, decode);
  if (!decodeModule)
    return failure();
  if (llvm::Linker::linkModules(*llvmModule, std::move(decodeModule)))
    return fail("linking the prefill and the decode step failed");
  if (options.output.empty())
    return fail("--generate needs -o");
  bool library = options.emit == EmitKind::Lib;
  if (library && failed(writeHeader([&](raw_ostream &os) {
        writeGeneratorLibraryHeader(os, prefill, decode, grid, maxLength,
                                    options.output);
      })))
    return failure();
  return linkExecutable(*llvmModule, t, [&](raw_ostream &os) {
    writeGeneratorMain(os, prefill, decode, grid, maxLength, library);
  });
}

LogicalResult Compiler::writeHeader(function_ref<void(raw_ostream &)> print) {
  SmallString<128> headerPath(options.output);
  llvm::sys::path::replace_extension(headerPath, "h");
  std::error_code ec;
  llvm::raw_fd_ostream os(headerPath, ec);
  if (ec)
    return fail("cannot write " + headerPath + ": " + ec.message());
  print(os);
  return success();
}

/// Writes `print` to the output file.
LogicalResult Compiler::writeOutput(function_ref<void(raw_ostream &)> print) {
  std::string error;
  auto out = openOutputFile(options.output, &error);
  if (!out)
    return fail(error);
  print(out->os());
  out->keep();
  return success();
}

LogicalResult Compiler::compile(llvm::SourceMgr &sourceMgr) {
  FailureOr<Target> t = chooseTarget();
  if (failed(t))
    return failure();
  if (options.liftConstants < 0)
    return fail("--lift-constants must be >= 0");
  OwningOpRef<ModuleOp> spmd = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!spmd || failed(runPasses(*spmd, "import", buildImportPipeline)))
    return failure();
  if (!options.saveConstants.empty() && options.liftConstants == 0)
    return fail("--save-constants needs --lift-constants=N");
  if (options.liftConstants > 0) {
    SmallVector<LiftedConstant> lifted;
    if (failed(liftConstants(*spmd, options.liftConstants, &lifted)))
      return failure();
    if (!options.saveConstants.empty() &&
        failed(saveConstants(options.saveConstants, lifted, spmd->getLoc())))
      return failure();
  }
  func::FuncOp entry = findEntry(*spmd, options.entry);
  if (!entry)
    return failure();
  FailureOr<SmallVector<int64_t>> grid = chooseGrid(*spmd, entry);
  if (failed(grid))
    return failure();
  if (options.generate)
    return compileGenerator(*spmd, entry, *grid, *t);
  std::string entryFn = entry.getSymName().str();
  OwningOpRef<ModuleOp> gradcheckFunctions;
  std::optional<GradcheckInfo> gradcheck;
  if (failed(loadGradcheck(*spmd, entry, gradcheckFunctions, gradcheck)))
    return failure();
  FailureOr<Reference> loaded = loadReference(*spmd, entry);
  if (failed(loaded))
    return failure();
  OwningOpRef<ModuleOp> reference = std::move(loaded->module);
  // Each module keeps the function it compiles: the model's other functions
  // (the forward beside its derived step) are not compiled twice over.
  keepOnlyFunctions(*spmd, {entryFn});
  keepOnlyFunctions(*reference, {loaded->function});

  // The partitioned program; its tensors are described once their layouts
  // are known.
  if (failed(runPasses(*spmd, "assign layouts", [&](OpPassManager &pm) {
        SummaAssignLayoutsOptions assign;
        assign.grid.assign(grid->begin(), grid->end());
        buildAssignLayoutsPipeline(pm, assign, options.zero);
      })))
    return failure();
  FailureOr<ProgramInfo> program =
      describeProgram(spmd->lookupSymbol<func::FuncOp>(entryFn),
                      /*halfTypes=*/options.target == "cuda");
  if (failed(program))
    return failure();
  program->reference = loaded->function;
  program->gradcheck = std::move(gradcheck);
  if (failed(runPasses(*spmd, "partition", [&](OpPassManager &pm) {
        buildPartitionPipeline(pm, options.reuseBudget);
      })))
    return failure();
  if (options.emit == EmitKind::SpmdMLIR)
    return writeOutput([&](raw_ostream &os) { spmd->print(os); });

  renameFunctions(*spmd, "__spmd");
  renameFunctions(*reference, "__ref");
  program->referenceF64 =
      options.referenceF64 && promoteToF64(*reference, "reference in f64",
                                           "--check's reference computes");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      lowerBoth(std::move(spmd), std::move(reference),
                std::move(gradcheckFunctions), *program, *t, llvmContext);
  if (!llvmModule)
    return failure();
  if (options.emit == EmitKind::LLVMIR)
    return writeOutput(
        [&](raw_ostream &os) { llvmModule->print(os, nullptr); });
  if (options.emit == EmitKind::Obj)
    return check(
        compile::emitObject(*llvmModule, options.optLevel, options.output));
  return writeBinary(*llvmModule, *program, *grid, *t);
}

LogicalResult driver::compileModel(MLIRContext &context,
                                   llvm::SourceMgr &sourceMgr,
                                   const CompileOptions &options) {
  return Compiler(context, options).compile(sourceMgr);
}
