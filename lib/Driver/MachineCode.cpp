//===- MachineCode.cpp - LLVM IR to object files for summa-compile -------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "MachineCode.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

static Error failure(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

static CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  return optLevel >= 3   ? CodeGenOptLevel::Aggressive
         : optLevel == 0 ? CodeGenOptLevel::None
                         : CodeGenOptLevel::Default;
}

/// A target machine for the host at `optLevel`.
static Expected<std::unique_ptr<TargetMachine>> hostMachine(unsigned optLevel) {
  std::string error;
  std::string triple = sys::getDefaultTargetTriple();
  const Target *target = TargetRegistry::lookupTarget(Triple(triple), error);
  if (!target)
    return failure("no LLVM target for " + triple + ": " + error);
  return std::unique_ptr<TargetMachine>(target->createTargetMachine(
      Triple(triple), sys::getHostCPUName(), "", TargetOptions(), Reloc::PIC_,
      std::nullopt, codeGenLevel(optLevel)));
}

/// LLVM's default pipeline at -O<optLevel>, without called-value
/// propagation: it looks for indirect calls, of which the compiled model has
/// none, and its time grows faster than quadratically with the length of
/// the model's glue function (40 s of 45 for a 96-layer GPT).
static void optimize(Module &module, TargetMachine &machine,
                     unsigned optLevel) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassInstrumentationCallbacks callbacks;
  callbacks.registerShouldRunOptionalPassCallback(
      [](StringRef pass, Any) { return pass != "CalledValuePropagationPass"; });
  PassBuilder builder(&machine, PipelineTuningOptions(), std::nullopt,
                      &callbacks);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  OptimizationLevel level = optLevel == 0   ? OptimizationLevel::O0
                            : optLevel == 1 ? OptimizationLevel::O1
                            : optLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager pm = level == OptimizationLevel::O0
                             ? builder.buildO0DefaultPipeline(level)
                             : builder.buildPerModuleDefaultPipeline(level);
  pm.run(module, mam);
}

/// The machine code of `module` into `path`.
static Error writeObject(Module &module, TargetMachine &machine,
                         StringRef path) {
  std::error_code ec;
  raw_fd_ostream out(path, ec, sys::fs::OF_None);
  if (ec)
    return failure("cannot write " + path + ": " + ec.message());
  legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, out, nullptr,
                                  CodeGenFileType::ObjectFile))
    return failure("the target cannot emit object files");
  pm.run(module);
  return Error::success();
}

/// Sets up `module` for `machine` and optimises it.
static Expected<std::unique_ptr<TargetMachine>> prepare(Module &module,
                                                        unsigned optLevel) {
  Expected<std::unique_ptr<TargetMachine>> machine = hostMachine(optLevel);
  if (!machine)
    return machine.takeError();
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  optimize(module, **machine, optLevel);
  return machine;
}

Error mlir::summa::compile::emitObject(Module &module, unsigned optLevel,
                                       StringRef path) {
  Expected<std::unique_ptr<TargetMachine>> machine = prepare(module, optLevel);
  if (!machine)
    return machine.takeError();
  return writeObject(module, **machine, path);
}

static bool isGlue(const GlobalValue *value) {
  const auto *function = dyn_cast<Function>(value);
  return function && !function->isDeclaration() && function->hasOptNone();
}

/// Gives every symbol defined with local linkage a name and hidden global
/// linkage, so that either object may define what the other uses.
static void exposeLocals(Module &module) {
  unsigned unnamed = 0;
  for (GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasLocalLinkage())
      continue;
    if (!value.hasName())
      value.setName("summa.local." + Twine(unnamed++));
    value.setLinkage(GlobalValue::ExternalLinkage);
    value.setVisibility(GlobalValue::HiddenVisibility);
  }
}

/// A copy of `module` holding the definitions `keep` selects and
/// declarations of the rest. LLVM's own globals (llvm.global_ctors,
/// llvm.used and the like) stay with the part that defines them: the other
/// part would get an external declaration of them, which means nothing.
static std::unique_ptr<Module>
part(const Module &module, function_ref<bool(const GlobalValue *)> keep) {
  ValueToValueMapTy map;
  std::unique_ptr<Module> copy = CloneModule(module, map, keep);
  for (GlobalVariable &global : make_early_inc_range(copy->globals()))
    if (global.isDeclaration() && global.use_empty() &&
        global.getName().starts_with("llvm."))
      global.eraseFromParent();
  return copy;
}

Error mlir::summa::compile::emitSplitObjects(
    Module &module, unsigned optLevel, StringRef path, StringRef gluePath,
    SmallVectorImpl<std::string> &written) {
  Expected<std::unique_ptr<TargetMachine>> machine = prepare(module, optLevel);
  if (!machine)
    return machine.takeError();
  bool hasGlue =
      any_of(module.functions(), [](const Function &f) { return isGlue(&f); });
  if (optLevel == 0 || !hasGlue) {
    written.push_back(path.str());
    return writeObject(module, **machine, path);
  }
  exposeLocals(module);
  std::unique_ptr<Module> glue = part(module, isGlue);
  std::unique_ptr<Module> rest =
      part(module, [](const GlobalValue *value) { return !isGlue(value); });
  written.push_back(path.str());
  if (Error error = writeObject(*rest, **machine, path))
    return error;
  Expected<std::unique_ptr<TargetMachine>> glueMachine = hostMachine(0);
  if (!glueMachine)
    return glueMachine.takeError();
  written.push_back(gluePath.str());
  return writeObject(*glue, **glueMachine, gluePath);
}
