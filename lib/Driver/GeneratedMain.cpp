//===- GeneratedMain.cpp - the executable's main and linking ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The C++ main that summa-compile compiles beside the model's objects: the
// tensor table of the program (SummaProgramDesc) handed to the runtime's
// summaRtMain, or, for a library, returned by summa_program(); the ABI
// version checked at compile and run time. Then the link against the
// runtime library.
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include "summa/Conversion/Passes.h"
#include "summa/Support/RuntimeDType.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstdlib>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::driver;

/// The C name of `t`'s runtime code; "-1" for a type the runtime has no
/// code for, which it refuses, naming the tensor, when it starts.
static const char *dtypeName(Type t) {
  const char *name = getDTypeCodeName(getDataDTypeCode(t));
  return name ? name : "-1";
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

/// The tensor tables and the SummaProgramDesc of `p`, each name starting
/// with `prefix` (`<prefix>program`).
static void writeProgram(raw_ostream &os, const ProgramInfo &p,
                         ArrayRef<int64_t> grid, StringRef prefix) {
  std::string pre = prefix.str();
  writeDeclaration(os, p.entry + "__spmd");
  if (!p.reference.empty())
    writeDeclaration(os, p.reference + "__ref");
  writeTensorTable(os, pre + "inputs", p.inputs);
  writeTensorTable(os, pre + "outputs", p.outputs);
  if (const std::optional<GradcheckInfo> &g = p.gradcheck) {
    writeDeclaration(os, g->loss);
    writeDeclaration(os, g->gradients);
    writeTensorTable(os, pre + "lossOutputs", g->lossOutputs);
    os << "static const int32_t " << pre << "gradcheckParams[] = {";
    llvm::interleaveComma(g->params, os);
    os << "};\n";
    os << "static const int64_t " << pre << "gradcheckFrozenRows[] = {";
    llvm::interleaveComma(g->frozenRows, os);
    os << "};\n";
    os << "static const SummaGradcheckDesc " << pre << "gradcheck = {"
       << g->loss << ", " << g->numInputs << ", " << g->lossOutputs.size()
       << ", " << pre << "lossOutputs, " << g->gradients << ", "
       << g->params.size() << ", " << pre << "gradcheckParams, " << pre
       << "gradcheckFrozenRows, " << (g->f64 ? 1 : 0) << "};\n";
  }
  os << "static const SummaProgramDesc " << pre << "program = {\"" << p.entry
     << "\", " << grid[0] << ", " << grid[2] << ", " << p.inputs.size() << ", "
     << p.outputs.size() << ", " << pre << "inputs, " << pre << "outputs, "
     << p.entry << "__spmd, "
     << (p.reference.empty() ? std::string("nullptr") : p.reference + "__ref")
     << ", " << (p.referenceF64 ? 1 : 0) << ", "
     << (p.gradcheck ? "&" + pre + "gradcheck" : std::string("nullptr"))
     << "};\n\n";
}

/// The includes of a generated main.
static void writePrologue(raw_ostream &os) {
  os << R"(#include "summa/Runtime/SummaRuntime.h"
#include <cstdint>
#include <cstdio>

)";
}

/// The check that the header it is compiled against, the library it runs
/// with and this compiler agree on the ABI (the tables follow it).
static void writeVersionCheck(raw_ostream &os) {
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
}

void driver::writeMain(raw_ostream &os, const ProgramInfo &p,
                       ArrayRef<int64_t> grid, bool library) {
  os << "// Generated by summa-compile: the "
     << (library ? "library entry" : "driver") << " of @" << p.entry
     << " on grid [" << grid[0] << ", " << grid[1] << ", " << grid[2] << "].\n";
  writePrologue(os);
  writeProgram(os, p, grid, "");
  writeVersionCheck(os);
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

void driver::writeGeneratorMain(raw_ostream &os, const ProgramInfo &prefill,
                                const ProgramInfo &decode,
                                ArrayRef<int64_t> grid, int64_t maxLength,
                                bool library) {
  os << "// Generated by summa-compile --generate: the "
     << (library ? "library entry" : "driver") << " of @" << prefill.entry
     << " and @" << decode.entry << " on grid [" << grid[0] << ", " << grid[1]
     << ", " << grid[2] << "].\n";
  writePrologue(os);
  writeProgram(os, prefill, grid, "prefill_");
  writeProgram(os, decode, grid, "decode_");
  os << "static const SummaGenerateDesc generator = {&prefill_program, "
        "&decode_program, "
     << maxLength << "};\n\n";
  writeVersionCheck(os);
  if (library) {
    // The generator's description, for summaGeneratorInit (SummaModel.h);
    // null (after a message) when the runtime library is another version.
    os << "extern \"C\" __attribute__((visibility(\"default\"))) const "
          "SummaGenerateDesc *summa_generator(void) {\n"
          "  return sameAPIVersion() ? &generator : nullptr;\n}\n";
    return;
  }
  os << "int main(int argc, char **argv) {\n"
        "  if (!sameAPIVersion())\n"
        "    return 1;\n"
        "  return summaRtGenerate(argc, argv, &generator);\n}\n";
}

void driver::writeLibraryHeader(raw_ostream &os, const ProgramInfo &p,
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

void driver::writeGeneratorLibraryHeader(raw_ostream &os,
                                         const ProgramInfo &prefill,
                                         const ProgramInfo &decode,
                                         ArrayRef<int64_t> grid,
                                         int64_t maxLength, StringRef library) {
  const TensorInfo &ids = prefill.inputs.front();
  os << "/* Generated by summa-compile --generate --emit=lib: @"
     << prefill.entry << " and @" << decode.entry << " on grid [" << grid[0]
     << "," << grid[1] << "," << grid[2] << "] (" << grid[0] * grid[1] * grid[2]
     << " ranks), in " << llvm::sys::path::filename(library) << ".\n"
     << " * Prompt ids " << ids.globalType
     << " for the prefill; sequences of at most " << maxLength
     << " tokens. Drive it with the\n"
     << " * summaGenerator calls of summa/Runtime/SummaModel.h:\n"
     << " *   SummaGenerator *g = summaGeneratorInit(summa_generator(), -1);\n"
     << " *\n * Weights:\n";
  // The decode step's inputs but the token, the position, the rows'
  // starts and the caches.
  for (const TensorInfo &t : decode.inputs) {
    StringRef name = t.label.empty() ? t.name : t.label;
    if (&t == &decode.inputs.front() || name == "pos" || name == "start" ||
        name.starts_with("cache."))
      continue;
    os << " *   " << name << ": " << t.globalType << "\n";
  }
  os << " */\n#ifndef SUMMA_GENERATOR_LIBRARY_H\n"
        "#define SUMMA_GENERATOR_LIBRARY_H\n"
        "#include \"summa/Runtime/SummaModel.h\"\n"
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
        "/* The generator's description: the argument of summaGeneratorInit. "
        "*/\n"
        "const SummaGenerateDesc *summa_generator(void);\n"
        "#ifdef __cplusplus\n}\n#endif\n#endif\n";
}

LogicalResult driver::link(StringRef mainCpp, ArrayRef<std::string> objects,
                           StringRef output, StringRef runtimeLib,
                           StringRef includeDir, bool library, bool verbose) {
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
                                   ("-I" + includeDir).str(), mainCpp.str()};
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
