//===- summa-compile.cpp - model to distributed executable ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-compile model.mlir --grid=q,q,d --target=cpu -o model
//
// Runs the summa pipeline on the entry function for the grid, lowers the
// unpartitioned function too (the reference that --check runs), emits one
// object file through LLVM and links it with the runtime library and a
// generated main (the runtime's summaRtMain, given a table that describes
// the entry function's tensors and their layouts).
//
//===----------------------------------------------------------------------===//

#include "MachineCode.h"
#include "SaveConstants.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/InitAllSumma.h"
#include "summa/InitAllSummaTranslations.h"
#include "summa/Pipelines/Pipelines.h"
#include "summa/Planner/Planner.h"
#include "summa/Support/Functions.h"
#include "summa/Tools/PanelReuseOptions.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <cctype>
#include <cmath>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("summa-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("output executable or library"),
                                       cl::value_desc("file"),
                                       cl::init("a.out"), cl::cat(category));
static cl::opt<std::string>
    gridOpt("grid",
            cl::desc("grid shape q,q,d, or auto (the planner's best grid for "
                     "--ranks)"),
            cl::Required, cl::cat(category));
static cl::opt<int64_t> ranksOpt("ranks",
                                 cl::desc("number of ranks for --grid=auto"),
                                 cl::init(0), cl::cat(category));
static cl::opt<std::string>
    target("target",
           cl::desc("cpu (MPI + BLAS runtime) or cuda (CUDA + NCCL + cuBLAS "
                    "runtime; every local op a GPU kernel)"),
           cl::init("cpu"), cl::cat(category));
static cl::opt<std::string> cudaChip(
    "cuda-chip",
    cl::desc("--target=cuda: GPU architecture of the kernels' SASS; the PTX "
             "beside it runs on later GPUs (default sm_80; sm_90 for Hopper)"),
    cl::init("sm_80"), cl::cat(category));
static cl::opt<std::string> cudaToolkit(
    "cuda-toolkit",
    cl::desc("--target=cuda: CUDA toolkit directory with ptxas, fatbinary "
             "and libdevice (default: the one the runtime was built with)"),
    cl::cat(category));
static cl::opt<bool> gpuLoopsOnHost(
    "gpu-loops-on-host",
    cl::desc("testing without a GPU: build the loop nests of --target=cuda's "
             "kernels but run them on the CPU backend"),
    cl::Hidden, cl::cat(category));
static cl::opt<bool> testPlantKernelBug(
    "test-plant-kernel-bug",
    cl::desc("tests only, with --gpu-loops-on-host or --target=cuda: "
             "miscompile the last "
             "kernel loop nest (its stores write value + 1), to show that "
             "--check's reference does not share the kernels' code"),
    cl::Hidden, cl::cat(category));
static cl::opt<bool> referenceInF64(
    "reference-f64",
    cl::desc("--check's reference computes in f64 (default; =false: in the "
             "model's own element types)"),
    cl::init(true), cl::cat(category));
static cl::opt<int64_t> gpuBlockSize(
    "gpu-block-size",
    cl::desc("--target=cuda: threads per block of generated kernels"),
    cl::init(256), cl::cat(category));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("function to compile (default: the only public one)"),
              cl::cat(category));
enum class Emit { Exe, Lib, Obj, SpmdMLIR, LLVMIR };
static cl::opt<Emit> emit(
    "emit", cl::desc("what to write"), cl::init(Emit::Exe),
    cl::values(clEnumValN(Emit::Exe, "exe", "linked executable (default)"),
               clEnumValN(Emit::Lib, "lib",
                          "shared library for a host program (the C API of "
                          "summa/Runtime/SummaModel.h) and its header, -o "
                          "with .h for .so"),
               clEnumValN(Emit::Obj, "obj", "object file of both functions"),
               clEnumValN(Emit::SpmdMLIR, "spmd-mlir",
                          "partitioned MLIR before bufferization"),
               clEnumValN(Emit::LLVMIR, "llvm", "LLVM IR of both functions")),
    cl::cat(category));
static cl::opt<std::string> referenceFile(
    "reference-file",
    cl::desc("take the function --check compares with from this file "
             "(default: the entry function itself, unpartitioned)"),
    cl::cat(category));
static cl::opt<std::string>
    referenceName("reference",
                  cl::desc("the reference function (default: the entry's "
                           "name, or the only public function of "
                           "--reference-file)"),
                  cl::cat(category));
static cl::opt<bool> keepTemps("keep-temps",
                               cl::desc("keep the generated main and object"),
                               cl::cat(category));
static cl::opt<unsigned> optLevel("O",
                                  cl::desc("LLVM optimisation level (0-3)"),
                                  cl::init(2), cl::Prefix, cl::cat(category));
static cl::opt<bool> verbose("v", cl::desc("print the link command"),
                             cl::cat(category));
static summa::PanelReuseOptions
    panelReuse(category,
               "keep a SUMMA loop's broadcast panels for the later loops that "
               "broadcast them again (summa-reuse-panels)");
static cl::opt<int64_t> liftConstants(
    "lift-constants",
    cl::desc("turn tensor constants of at least this many elements into "
             "arguments of the entry (summa-lift-constants), laid out like "
             "weights and given to the binary as inputs; 0: keep them"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string> saveConstantsTo(
    "save-constants",
    cl::desc("with --lift-constants: write the lifted constants' values to "
             "this safetensors file under their argument names (the "
             "resources' keys), for the binary's --inputs"),
    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<bool> zero(
    "zero",
    cl::desc("split the optimizer state of a training step over the grid's "
             "depth (ZeRO stage 1 along depth, summa-shard-optimizer-state): "
             "optimizer bytes per rank / d, the gradient's depth all-reduce "
             "a reduce-scatter, the weights all-gathered over depth"),
    cl::cat(category));
static cl::opt<bool> overlap(
    "overlap",
    cl::desc("overlap each SUMMA step's collectives with the previous step's "
             "GEMM (summa-overlap: asynchronous collectives, two buffers "
             "per panel)"),
    cl::cat(category));
static cl::opt<bool> remarks(
    "remarks",
    cl::desc("report at each local op of the partitioned program whether it "
             "went to a library call (BLAS, cuBLAS) or stays generated code"),
    cl::cat(category));

namespace {

/// What the generated main needs to know of one tensor.
struct TensorInfo {
  std::string name;
  /// The name the function gives it (summa.name), or empty.
  std::string label;
  RankedTensorType globalType;
  SmallVector<int64_t> localShape;
  SmallVector<SmallVector<summa::GridAxis>> splits;
  /// Per dimension, the groups a factored dimension is cut into.
  SmallVector<int64_t> groups;
  double scale = 1.0;
  /// Inputs: values in [0, 1) (`summa.init = "nonnegative"`).
  bool nonnegative = false;
  /// Inputs: zeros, optional in --inputs (`summa.init = "zeros"`).
  bool zeros = false;
  /// Outputs: 1 + the input this output replaces in the next step
  /// (`summa.updates = <argument index>`), or 0.
  int64_t updates = 0;
};

struct ProgramInfo {
  std::string entry;
  /// The function --check runs unpartitioned on rank 0.
  std::string reference;
  /// The reference computes in f64 (summa-promote-floats).
  bool referenceF64 = false;
  SmallVector<TensorInfo, 0> inputs, outputs;
};

} // namespace

static LogicalResult fail(const Twine &message) {
  llvm::errs() << "summa-compile: error: " << message << "\n";
  return failure();
}

static func::FuncOp findEntry(ModuleOp module, StringRef entryName) {
  SmallVector<func::FuncOp> selected =
      summa::selectFunctions(module, entryName);
  if (selected.size() == 1)
    return selected.front();
  if (selected.size() > 1)
    module.emitError() << "more than one public function; choose one "
                          "with --entry";
  else
    module.emitError() << (entryName.empty()
                               ? std::string("no public function to compile")
                               : "no function named @" + entryName);
  return {};
}

/// Reads the layouts that summa-assign-layouts wrote on the entry function.
static FailureOr<TensorInfo> describe(func::FuncOp func, Type type,
                                      DictionaryAttr attrs, std::string name) {
  TensorInfo info;
  info.name = std::move(name);
  if (auto label =
          attrs ? attrs.getAs<StringAttr>(summa::kNameAttrName) : nullptr)
    info.label = label.getValue().str();
  info.globalType = dyn_cast<RankedTensorType>(type);
  auto layout =
      attrs ? attrs.getAs<summa::LayoutAttr>(summa::kLayoutAttrName) : nullptr;
  if (!info.globalType || !layout)
    return func.emitError() << info.name << " has no layout";
  if (info.globalType.getRank() > 4)
    return func.emitError()
           << info.name << " has rank " << info.globalType.getRank()
           << "; the driver supports rank <= 4";
  summa::GridOp grid = summa::lookupGrid(func, layout.getGrid());
  FailureOr<SmallVector<int64_t>> local =
      summa::getLocalShape(info.globalType.getShape(), layout, grid);
  if (failed(local))
    return func.emitError() << info.name << " is not divisible by the grid";
  info.localShape = *local;
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    info.splits.push_back(layout.getDimSplit(d));
    info.groups.push_back(layout.getDimGroups(d));
  }
  // Weights are scaled by 1/sqrt(fan-in) so activations stay O(1).
  if (layout.getRank() == 2 &&
      info.splits[0] == SmallVector<summa::GridAxis>{summa::GridAxis::row} &&
      info.splits[1] == SmallVector<summa::GridAxis>{summa::GridAxis::col})
    info.scale = 1.0 / std::sqrt(double(info.globalType.getDimSize(0)));
  if (auto init = attrs.getAs<StringAttr>(summa::kInitAttrName)) {
    if (init.getValue() != "nonnegative" && init.getValue() != "zeros")
      return func.emitError()
             << info.name << " has unknown summa.init \"" << init.getValue()
             << "\" (expected \"nonnegative\" or \"zeros\")";
    info.nonnegative = init.getValue() == "nonnegative";
    info.zeros = init.getValue() == "zeros";
  }
  return info;
}

/// The values an integer argument may take, [0, bound): the smallest size of
/// a tensor dimension its elements index (an embedding lookup or a gather
/// of the target logits reads `tensor.extract %table[%id, ...]` with the id
/// cast to an index inside a generic); 2 if nothing indexes with it.
static int64_t integerInputBound(BlockArgument arg) {
  int64_t bound = std::numeric_limits<int64_t>::max();
  SmallVector<Value> work = {arg};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
        if (generic.isDpsInput(&use))
          work.push_back(generic.getMatchingBlockArgument(&use));
      } else if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp,
                     arith::TruncIOp, tensor::ExpandShapeOp,
                     tensor::CollapseShapeOp, tensor::ExtractSliceOp>(user)) {
        work.push_back(user->getResult(0));
      } else if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        for (auto [d, index] : llvm::enumerate(extract.getIndices()))
          if (index == v) {
            int64_t size = extract.getTensor().getType().getDimSize(d);
            if (!ShapedType::isDynamic(size))
              bound = std::min(bound, size);
          }
      }
    }
  }
  return bound == std::numeric_limits<int64_t>::max() ? 2 : bound;
}

static FailureOr<ProgramInfo> describeProgram(func::FuncOp func) {
  ProgramInfo program;
  program.entry = func.getSymName().str();
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    FailureOr<TensorInfo> t =
        describe(func, func.getArgumentTypes()[i], func.getArgAttrDict(i),
                 "arg" + std::to_string(i));
    if (failed(t))
      return failure();
    if (isa<IntegerType>(t->globalType.getElementType()) && !t->zeros) {
      // Integers in [0, bound): the driver scales a value in [0, 1).
      t->scale = static_cast<double>(integerInputBound(func.getArgument(i)));
      t->nonnegative = true;
    }
    program.inputs.push_back(*t);
  }
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    FailureOr<TensorInfo> t =
        describe(func, func.getResultTypes()[i], func.getResultAttrDict(i),
                 "result" + std::to_string(i));
    if (failed(t))
      return failure();
    if (auto updates =
            func.getResultAttrOfType<IntegerAttr>(i, summa::kUpdatesAttrName)) {
      int64_t arg = updates.getInt();
      if (arg < 0 || arg >= func.getNumArguments() ||
          func.getArgumentTypes()[arg] != func.getResultTypes()[i])
        return func.emitError()
               << "result " << i << " has summa.updates = " << arg
               << ", which is not an argument of the same type";
      t->updates = arg + 1;
    }
    program.outputs.push_back(*t);
  }
  // Both drivers run f32, f64 and integers (token ids, labels); the GPU
  // driver also fills, gathers and compares f16 and bf16 tensors.
  bool halfTypes = target == "cuda";
  for (const TensorInfo &t :
       llvm::concat<const TensorInfo>(program.inputs, program.outputs)) {
    Type type = t.globalType.getElementType();
    if (type.isF32() || type.isF64() || type.isSignlessInteger(64) ||
        type.isSignlessInteger(32) ||
        (halfTypes && (type.isF16() || type.isBF16())))
      continue;
    return func.emitError()
           << t.name << " has element type " << type
           << (halfTypes ? "; the GPU driver runs f32, f64, f16, bf16, i64 "
                           "and i32"
                         : "; the CPU driver runs f32, f64, i64 and i32 (f16 "
                           "and bf16 need --target=cuda)");
  }
  return program;
}

/// Gives every defined function of `module` the suffix `suffix`.
static void renameFunctions(ModuleOp module, StringRef suffix) {
  SymbolTable table(module);
  for (func::FuncOp func : llvm::to_vector(summa::definedFunctions(module))) {
    std::string newName = (func.getSymName() + suffix).str();
    (void)table.rename(func, StringAttr::get(module.getContext(), newName));
  }
}

static const char *dtypeName(Type t) {
  return t.isF64()                 ? "SUMMA_DT_F64"
         : t.isF16()               ? "SUMMA_DT_F16"
         : t.isBF16()              ? "SUMMA_DT_BF16"
         : t.isSignlessInteger(64) ? "SUMMA_DT_I64"
         : t.isSignlessInteger(32) ? "SUMMA_DT_I32"
                                   : "SUMMA_DT_F32";
}
static void writeTensorTable(raw_ostream &os, StringRef name,
                             ArrayRef<TensorInfo> tensors) {
  if (tensors.empty()) {
    os << "static const SummaTensorDesc *" << name << " = nullptr;\n";
    return;
  }
  os << "static const SummaTensorDesc " << name << "[] = {\n";
  for (const TensorInfo &t : tensors) {
    os << "  {\"" << t.name << "\", " << t.globalType.getRank() << ", "
       << dtypeName(t.globalType.getElementType()) << ", {";
    llvm::interleaveComma(t.globalType.getShape(), os);
    os << "}, {";
    llvm::interleaveComma(t.localShape, os);
    os << "}, {";
    llvm::interleaveComma(t.splits, os, [&](ArrayRef<summa::GridAxis> axes) {
      os << "{";
      for (summa::GridAxis a : axes)
        os << static_cast<int>(a) << ", ";
      os << "-1}";
    });
    os << "}, " << llvm::format("%.17g", t.scale) << ", "
       << (t.zeros         ? "SUMMA_INIT_ZEROS"
           : t.nonnegative ? "SUMMA_INIT_NONNEGATIVE"
                           : "SUMMA_INIT_UNIFORM")
       << ", " << t.updates << ", {";
    llvm::interleaveComma(t.groups, os);
    os << "}, ";
    if (t.label.empty()) {
      os << "nullptr";
    } else {
      // A C string literal: quotes and backslashes escaped, anything not
      // printable as three octal digits.
      os << "\"";
      for (unsigned char c : t.label) {
        if (c == '"' || c == '\\')
          os << '\\' << c;
        else if (std::isprint(c))
          os << c;
        else
          os << llvm::format("\\%03o", c);
      }
      os << "\"";
    }
    os << "},\n";
  }
  os << "};\n";
}

/// The declaration of a compiled entry: it takes the buffers' array itself
/// (summa-pack-arguments), so it is a SummaInvokeFn.
static void writeDeclaration(raw_ostream &os, StringRef fnName) {
  os << "extern \"C\" void " << fnName << "(void **);\n";
}

static void writeMain(raw_ostream &os, const ProgramInfo &p,
                      ArrayRef<int64_t> grid, bool library) {
  os << "// Generated by summa-compile: the "
     << (library ? "library entry" : "driver") << " of @" << p.entry
     << " on grid [" << grid[0] << ", " << grid[1] << ", " << grid[2] << "].\n";
  os << R"(#include "summa/Runtime/SummaRuntime.h"
#include <cstdint>
#include <cstdio>

)";
  writeDeclaration(os, p.entry + "__spmd");
  writeDeclaration(os, p.reference + "__ref");
  writeTensorTable(os, "inputs", p.inputs);
  writeTensorTable(os, "outputs", p.outputs);
  os << "static const SummaProgramDesc program = {\"" << p.entry << "\", "
     << grid[0] << ", " << grid[2] << ", " << p.inputs.size() << ", "
     << p.outputs.size() << ", inputs, outputs, " << p.entry << "__spmd, "
     << p.reference << "__ref, " << (p.referenceF64 ? 1 : 0) << "};\n\n";
  // The header this main is compiled against, the library it runs with
  // and this compiler must agree on the ABI (the tables above follow it).
  os << "static_assert(SUMMA_RT_API_VERSION == " << summa::kRuntimeAPIVersion
     << ", \"summa-compile writes runtime API version "
     << summa::kRuntimeAPIVersion
     << "; the runtime header is another version\");\n";
  os << "static bool sameAPIVersion() {\n"
        "  if (summaRtGetAPIVersion() == SUMMA_RT_API_VERSION)\n"
        "    return true;\n"
        "  fprintf(stderr, \"summa: this program was compiled for runtime "
        "API version %d, the runtime library is version %d\\n\",\n"
        "          SUMMA_RT_API_VERSION, (int)summaRtGetAPIVersion());\n"
        "  return false;\n}\n";
  if (library) {
    // The model's description, for summaModelInit (SummaModel.h); null
    // (after a message) when the runtime library is another version.
    os << "extern \"C\" __attribute__((visibility(\"default\"))) const "
          "SummaProgramDesc *summa_program(void) {\n"
          "  return sameAPIVersion() ? &program : nullptr;\n}\n";
    return;
  }
  os << "int main(int argc, char **argv) {\n"
        "  if (!sameAPIVersion())\n"
        "    return 1;\n"
        "  return summaRtMain(argc, argv, &program);\n}\n";
}

/// The header of an --emit=lib library: summa_program() and, as comments,
/// the names and shapes of the model's tensors.
static void writeLibraryHeader(raw_ostream &os, const ProgramInfo &p,
                               ArrayRef<int64_t> grid, StringRef library) {
  os << "/* Generated by summa-compile --emit=lib: @" << p.entry << " on grid ["
     << grid[0] << "," << grid[1] << "," << grid[2] << "] ("
     << grid[0] * grid[1] * grid[2] << " ranks), in "
     << llvm::sys::path::filename(library) << ".\n"
     << " * Drive it with the calls of summa/Runtime/SummaModel.h:\n"
     << " *   SummaModel *m = summaModelInit(summa_program(), -1);\n"
     << " *\n";
  auto list = [&](const char *what, ArrayRef<TensorInfo> tensors) {
    os << " * " << what << ":\n";
    for (const TensorInfo &t : tensors) {
      os << " *   " << (t.label.empty() ? t.name : t.label) << ": "
         << t.globalType;
      if (t.updates > 0)
        os << ", updates input " << t.updates - 1;
      os << "\n";
    }
  };
  list("Inputs", p.inputs);
  list("Outputs", p.outputs);
  os << " */\n#ifndef SUMMA_MODEL_LIBRARY_H\n#define SUMMA_MODEL_LIBRARY_H\n"
        "#include \"summa/Runtime/SummaModel.h\"\n"
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
        "/* The model's description: the argument of summaModelInit. */\n"
        "const SummaProgramDesc *summa_program(void);\n"
        "#ifdef __cplusplus\n}\n#endif\n#endif\n";
}

/// --mlir-timing: one report for every pipeline summa-compile runs (set in
/// main).
static TimingScope *timingScope = nullptr;

/// Runs the passes `build` adds on `module`; `phase` names them in the
/// --mlir-timing report.
static LogicalResult runPasses(ModuleOp module, StringRef phase,
                               function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  // --mlir-print-ir-*, --mlir-timing and the other pass-manager options
  // apply to every pipeline summa-compile runs.
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  // A scope per phase: pass managers that reuse the memory of an earlier
  // one's passes must not add to its timers.
  std::optional<TimingScope> scope;
  if (timingScope) {
    scope = timingScope->nest(phase);
    pm.enableTiming(*scope);
  }
  build(pm);
  return pm.run(module);
}

static std::unique_ptr<llvm::Module>
toLLVM(ModuleOp module, llvm::LLVMContext &context, StringRef name) {
  return translateModuleToLLVMIR(module, context, name);
}

/// An error of the LLVM back end as summa-compile's diagnostic.
static LogicalResult check(llvm::Error error) {
  if (!error)
    return success();
  return fail(llvm::toString(std::move(error)));
}

static LogicalResult link(StringRef mainCpp, ArrayRef<std::string> objects,
                          StringRef output, StringRef runtimeLib,
                          bool library) {
  std::string cxx = "c++";
  if (const char *env = std::getenv("SUMMA_CXX"))
    cxx = env;
  llvm::ErrorOr<std::string> cxxPath = llvm::sys::findProgramByName(cxx);
  if (!cxxPath)
    return fail("cannot find the C++ compiler '" + cxx +
                "' to link the driver (set SUMMA_CXX)");
  std::string rpath =
      "-Wl,-rpath," + llvm::sys::path::parent_path(runtimeLib).str();
  SmallVector<std::string> args = {*cxxPath, "-O2", "-std=c++17",
                                   "-I" SUMMA_RUNTIME_INCLUDE_DIR,
                                   mainCpp.str()};
  llvm::append_range(args, objects);
  args.append({runtimeLib.str(), rpath, "-lm", "-o", output.str()});
  if (library)
    args.insert(args.begin() + 1, {"-shared", "-fPIC"});
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  if (verbose) {
    llvm::interleave(argRefs, llvm::errs(), " ");
    llvm::errs() << "\n";
  }
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*cxxPath, argRefs, std::nullopt, {}, 0, 0,
                                     &error);
  if (rc != 0)
    return fail("linking failed (" + cxx + " exited with " +
                std::to_string(rc) + (error.empty() ? "" : ": " + error) + ")");
  return success();
}

namespace {
/// --test-plant-kernel-bug: the last scf.parallel of each function (a
/// kernel's loop nest) stores its first float value plus one.
struct PlantKernelBugPass
    : public PassWrapper<PlantKernelBugPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PlantKernelBugPass)
  StringRef getArgument() const override { return "summa-test-plant-bug"; }
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      scf::ParallelOp last;
      func.walk([&](scf::ParallelOp loop) {
        if (!loop->getParentOfType<scf::ParallelOp>())
          last = loop;
      });
      if (!last)
        return;
      memref::StoreOp store;
      last.walk([&](memref::StoreOp s) {
        if (!store && isa<FloatType>(s.getValueToStore().getType()))
          store = s;
      });
      if (!store)
        return;
      OpBuilder b(store);
      auto type = cast<FloatType>(store.getValueToStore().getType());
      Value one = arith::ConstantOp::create(b, store.getLoc(),
                                            b.getFloatAttr(type, 1.0));
      Value wrong = arith::AddFOp::create(b, store.getLoc(),
                                          store.getValueToStore(), one);
      store.getValueMutable().assign(wrong);
    });
  }
};
} // namespace

/// What --target (and --gpu-loops-on-host) select: the runtime library to
/// link and, for kernels, how to build them.
struct Target {
  std::string runtimeLib = SUMMA_RUNTIME_LIBRARY;
  std::optional<summa::CudaOptions> cuda;
};

static FailureOr<Target> chooseTarget() {
  Target t;
  if (testPlantKernelBug && !gpuLoopsOnHost && target != "cuda")
    return fail("--test-plant-kernel-bug needs --gpu-loops-on-host or "
                "--target=cuda");
  if (gpuBlockSize < 1 || gpuBlockSize > 1024)
    return fail("--gpu-block-size must be in [1, 1024]");
  if (target == "cpu" && !gpuLoopsOnHost)
    return t;
  if (target == "cpu") {
    t.cuda.emplace();
    t.cuda->loopsOnHost = true;
  } else if (target == "cuda") {
#ifdef SUMMA_RUNTIME_CUDA_LIBRARY
    t.runtimeLib = SUMMA_RUNTIME_CUDA_LIBRARY;
    t.cuda.emplace();
    t.cuda->chip = cudaChip;
    t.cuda->toolkit =
        cudaToolkit.empty() ? SUMMA_CUDA_TOOLKIT_DIR : cudaToolkit.getValue();
    if (!StringRef(t.cuda->chip).starts_with("sm_"))
      return fail("--cuda-chip must name an architecture such as sm_80 or "
                  "sm_90, got '" +
                  t.cuda->chip + "'");
#else
    return fail("--target=cuda: this build has no GPU backend (nvcc was not "
                "found when it was configured); use --target=cpu");
#endif
  } else {
    return fail("unknown --target '" + target + "' (expected cpu or cuda)");
  }
  t.cuda->blockSize = gpuBlockSize;
  if (testPlantKernelBug)
    t.cuda->afterKernelLoops = [](OpPassManager &pm) {
      pm.addPass(std::make_unique<PlantKernelBugPass>());
    };
  return t;
}

/// --grid: q,q,d, or the planner's best grid of --ranks for `entry`.
static FailureOr<SmallVector<int64_t>> chooseGrid(ModuleOp module,
                                                  func::FuncOp entry) {
  SmallVector<int64_t> grid;
  if (gridOpt == "auto") {
    if (ranksOpt <= 0)
      return fail("--grid=auto needs --ranks=P");
    summa::plan::PlanOptions options;
    options.ranks = ranksOpt;
    options.entry = entry.getSymName().str();
    FailureOr<summa::plan::Plan> plan =
        summa::plan::planModule(module, options);
    if (failed(plan))
      return failure();
    if (plan->best < 0)
      return fail("--grid=auto: no grid of " + std::to_string(ranksOpt) +
                  " ranks can partition the model (summa-plan tells why)");
    grid.assign(plan->strategies[plan->best].grid.begin(),
                plan->strategies[plan->best].grid.end());
    llvm::errs() << "summa-compile: --grid=auto picked [" << grid[0] << ","
                 << grid[1] << "," << grid[2] << "]: " << plan->reason << "\n";
    return grid;
  }
  for (StringRef part : llvm::split(StringRef(gridOpt), ',')) {
    int64_t v;
    if (part.trim().getAsInteger(10, v))
      return fail("--grid must be q,q,d with q >= 1 and d >= 1, or auto");
    grid.push_back(v);
  }
  if (!summa::isGridShape(grid))
    return fail("--grid must be q,q,d with q >= 1 and d >= 1, or auto");
  return grid;
}

/// --check's reference: a copy of the input (before partitioning) or
/// --reference-file, whose function (--reference, else the entry's name or
/// the file's only public one) must have the entry's type.
struct Reference {
  OwningOpRef<ModuleOp> module;
  /// The reference function in `module`.
  std::string function;
};
static FailureOr<Reference> loadReference(MLIRContext &context, ModuleOp input,
                                          func::FuncOp entry) {
  OwningOpRef<ModuleOp> reference;
  if (referenceFile.empty()) {
    reference = input.clone();
  } else {
    llvm::SourceMgr refSources;
    reference = parseSourceFile<ModuleOp>(referenceFile.getValue(), refSources,
                                          ParserConfig(&context));
    if (!reference)
      return fail("cannot parse the reference file '" + referenceFile + "'");
    if (failed(runPasses(*reference, "import the reference",
                         summa::buildImportPipeline)))
      return failure();
  }
  func::FuncOp refEntry =
      findEntry(*reference, !referenceName.empty()  ? StringRef(referenceName)
                            : referenceFile.empty() ? entry.getSymName()
                                                    : StringRef());
  if (!refEntry)
    return failure();
  if (refEntry.getFunctionType() != entry.getFunctionType())
    return refEntry.emitError()
           << "the reference function's type " << refEntry.getFunctionType()
           << " differs from the entry's " << entry.getFunctionType();
  std::string function = refEntry.getSymName().str();
  return Reference{std::move(reference), std::move(function)};
}

/// The reference in f64 (summa-promote-floats) where the module allows it,
/// otherwise in its own types with the reason as a warning.
static void promoteReference(MLIRContext &context, ModuleOp reference,
                             ProgramInfo &program) {
  if (!referenceInF64)
    return;
  std::string why;
  {
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
      if (why.empty()) {
        llvm::raw_string_ostream os(why);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    program.referenceF64 = succeeded(
        runPasses(reference, "reference in f64", [](OpPassManager &pm) {
          pm.addPass(summa::createSummaPromoteFloats());
        }));
  }
  if (!program.referenceF64)
    llvm::errs() << "summa-compile: warning: --check's reference computes "
                    "in the model's own element types: "
                 << why << "\n";
}

/// Both modules to LLVM IR: the partitioned one for `t`, the reference as
/// host code through the plain CPU pipeline on every target (linalg to
/// loops, no kernels or kernel loop forms, no library, libm), so that a bug
/// in the partitioned program's code generation cannot hide on both sides
/// of --check. Returns them linked into one module. One module at a time is
/// lowered, translated and freed (peak memory).
static std::unique_ptr<llvm::Module> lowerBoth(OwningOpRef<ModuleOp> spmd,
                                               OwningOpRef<ModuleOp> reference,
                                               const ProgramInfo &program,
                                               const Target &t,
                                               llvm::LLVMContext &llvmContext) {
  auto lowerOne = [&](OwningOpRef<ModuleOp> owner,
                      bool isReference) -> std::unique_ptr<llvm::Module> {
    ModuleOp m = *owner;
    if (failed(runPasses(m, isReference ? "lower the reference" : "lower",
                         [&](OpPassManager &pm) {
                           summa::LowerOptions lower;
                           lower.overlap = overlap && !isReference;
                           lower.cuda =
                               t.cuda && !isReference ? &*t.cuda : nullptr;
                           lower.plain = isReference;
                           lower.remarks = remarks && !isReference;
                           lower.packArguments.push_back(
                               isReference ? program.reference + "__ref"
                                           : program.entry + "__spmd");
                           summa::buildLowerToLLVMPipeline(pm, lower);
                         })))
      return nullptr;
    std::unique_ptr<llvm::Module> translated =
        toLLVM(m, llvmContext, isReference ? "summa_ref" : "summa_spmd");
    if (!translated)
      (void)fail("translation to LLVM IR failed");
    return translated;
  };
  std::unique_ptr<llvm::Module> llvmModule = lowerOne(std::move(spmd), false);
  if (!llvmModule)
    return nullptr;
  std::unique_ptr<llvm::Module> llvmRef = lowerOne(std::move(reference), true);
  if (!llvmRef)
    return nullptr;
  if (llvm::Linker::linkModules(*llvmModule, std::move(llvmRef))) {
    (void)fail("linking the partitioned and reference modules failed");
    return nullptr;
  }
  return llvmModule;
}

/// --emit=exe or lib: the object, the generated main (and, for a library,
/// its header), linked against the runtime.
static LogicalResult writeBinary(llvm::Module &llvmModule,
                                 const ProgramInfo &program,
                                 ArrayRef<int64_t> grid, const Target &t) {
  // The temporary files: the model's objects (its loop nests, its glue;
  // MachineCode.h) and the generated main.
  SmallString<128> objPath, gluePath, mainPath;
  for (auto [path, stem, ext] : {std::tuple(&objPath, "summa-model", "o"),
                                 std::tuple(&gluePath, "summa-glue", "o"),
                                 std::tuple(&mainPath, "summa-main", "cpp")})
    if (auto ec = llvm::sys::fs::createTemporaryFile(stem, ext, *path))
      return fail("cannot create a temporary file: " + ec.message());
  llvm::scope_exit cleanUp([&] {
    if (keepTemps) {
      llvm::errs() << "summa-compile: kept " << mainPath << ", " << objPath
                   << " and " << gluePath << "\n";
      return;
    }
    for (StringRef path : {objPath, gluePath, mainPath})
      llvm::sys::fs::remove(path);
  });
  SmallVector<std::string> objects;
  if (failed(check(summa::compile::emitSplitObjects(
          llvmModule, optLevel, objPath, gluePath, objects))))
    return failure();
  bool library = emit == Emit::Lib;
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(mainPath, ec);
    if (ec)
      return fail("cannot write " + mainPath + ": " + ec.message());
    writeMain(os, program, grid, library);
  }
  if (library) {
    SmallString<128> headerPath(outputFile);
    llvm::sys::path::replace_extension(headerPath, "h");
    std::error_code ec;
    llvm::raw_fd_ostream os(headerPath, ec);
    if (ec)
      return fail("cannot write " + headerPath + ": " + ec.message());
    writeLibraryHeader(os, program, grid, outputFile);
  }
  return link(mainPath, objects, outputFile, t.runtimeLib, library);
}

/// Writes `print` to --output (-o).
template <typename PrintFn>
static LogicalResult writeOutput(PrintFn print) {
  std::string error;
  auto out = openOutputFile(outputFile, &error);
  if (!out)
    return fail(error);
  print(out->os());
  out->keep();
  return success();
}

static LogicalResult compile(MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  FailureOr<Target> t = chooseTarget();
  if (failed(t))
    return failure();
  if (liftConstants < 0)
    return fail("--lift-constants must be >= 0");
  std::string reuseError;
  std::optional<int64_t> reuseBudget = panelReuse.budgetOrNone(reuseError);
  if (!reuseError.empty())
    return fail(reuseError);
  OwningOpRef<ModuleOp> spmd = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!spmd || failed(runPasses(*spmd, "import", summa::buildImportPipeline)))
    return failure();
  if (!saveConstantsTo.empty() && liftConstants == 0)
    return fail("--save-constants needs --lift-constants=N");
  if (liftConstants > 0) {
    SmallVector<summa::LiftedConstant> lifted;
    if (failed(summa::liftConstants(*spmd, liftConstants, &lifted)))
      return failure();
    if (!saveConstantsTo.empty() &&
        failed(summa::saveConstants(saveConstantsTo, lifted, spmd->getLoc())))
      return failure();
  }
  func::FuncOp entry = findEntry(*spmd, entryName);
  if (!entry)
    return failure();
  FailureOr<SmallVector<int64_t>> grid = chooseGrid(*spmd, entry);
  if (failed(grid))
    return failure();
  std::string entryFn = entry.getSymName().str();
  FailureOr<Reference> loaded = loadReference(context, *spmd, entry);
  if (failed(loaded))
    return failure();
  OwningOpRef<ModuleOp> reference = std::move(loaded->module);

  // The partitioned program; its tensors are described once their layouts
  // are known.
  if (failed(runPasses(*spmd, "assign layouts", [&](OpPassManager &pm) {
        summa::SummaAssignLayoutsOptions options;
        options.grid.assign(grid->begin(), grid->end());
        summa::buildAssignLayoutsPipeline(pm, options, zero);
      })))
    return failure();
  FailureOr<ProgramInfo> program =
      describeProgram(spmd->lookupSymbol<func::FuncOp>(entryFn));
  if (failed(program))
    return failure();
  program->reference = loaded->function;
  if (failed(runPasses(*spmd, "partition", [&](OpPassManager &pm) {
        summa::buildPartitionPipeline(pm, reuseBudget);
      })))
    return failure();
  if (emit == Emit::SpmdMLIR)
    return writeOutput([&](raw_ostream &os) { spmd->print(os); });

  renameFunctions(*spmd, "__spmd");
  renameFunctions(*reference, "__ref");
  promoteReference(context, *reference, *program);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = lowerBoth(
      std::move(spmd), std::move(reference), *program, *t, llvmContext);
  if (!llvmModule)
    return failure();
  if (emit == Emit::LLVMIR)
    return writeOutput(
        [&](raw_ostream &os) { llvmModule->print(os, nullptr); });
  if (emit == Emit::Obj)
    return check(summa::compile::emitObject(*llvmModule, optLevel, outputFile));
  return writeBinary(*llvmModule, *program, *grid, *t);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  summa::registerAllSummaPasses();
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "summa-compile: compile a linalg model into a 2.5D SUMMA program "
      "linked with the summa runtime\n\n"
      "  summa-compile model.mlir --grid=2,2,2 --target=cpu -o model\n"
      "  mpirun -np 8 ./model --check --iters 10\n");

  DialectRegistry registry;
  summa::registerAllSummaDialects(registry);
  summa::registerAllSummaTranslations(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "summa-compile: error: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // --mlir-timing's report is printed when `timing` goes out of scope.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope root = timing.getRootScope();
  if (timing.isEnabled())
    timingScope = &root;
  return failed(compile(context, sourceMgr)) ? 1 : 0;
}
