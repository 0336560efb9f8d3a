//===- Program.h - the compiled program, for the driver ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The driver library's internal interface: the description of the entry
// function's tensors that the generated main hands the runtime
// (ProgramInfo), and the generated main itself.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_DRIVER_PROGRAM_H
#define SUMMA_LIB_DRIVER_PROGRAM_H

#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir::summa::driver {

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

/// --gradcheck's functions (summa.gradcheck on a derived step), compiled
/// unpartitioned beside the reference.
struct GradcheckInfo {
  /// The loss function and the gradients' function, as compiled.
  std::string loss, gradients;
  /// The loss function's arguments: the step's first `numInputs`.
  int64_t numInputs = 0;
  /// The step's argument number of each gradient, and the row of its
  /// dimension 0 the gradient leaves out (summa.padding_idx; -1: none).
  SmallVector<int64_t> params;
  SmallVector<int64_t> frozenRows;
  /// The loss function's results, whole.
  SmallVector<TensorInfo, 0> lossOutputs;
  /// Both compute in f64 (summa-promote-floats).
  bool f64 = false;
};

struct ProgramInfo {
  std::string entry;
  /// The function --check runs unpartitioned on rank 0; empty: none.
  std::string reference;
  /// The reference computes in f64 (summa-promote-floats).
  bool referenceF64 = false;
  SmallVector<TensorInfo, 0> inputs, outputs;
  std::optional<GradcheckInfo> gradcheck;
};

/// Reports `message` as a summa-compile error; returns failure.
LogicalResult fail(const Twine &message);

/// The function named `entryName`, or the module's only public one; null
/// after an error at the module.
func::FuncOp findEntry(ModuleOp module, StringRef entryName);

/// The tensors of `func` once summa-assign-layouts has laid them out:
/// shapes, splits, how the driver fills each input. `halfTypes`: the GPU
/// driver, which also runs f16 and bf16.
FailureOr<ProgramInfo> describeProgram(func::FuncOp func, bool halfTypes);

/// A tensor of type `type` whole on every rank, for the functions that run
/// on rank 0 alone (--gradcheck's); a located error for a type the driver
/// cannot hold.
FailureOr<TensorInfo> describeWhole(Operation *at, Type type, std::string name);

/// Erases every function of `module` but those `keep` names (and the
/// declarations nothing calls then).
void keepOnlyFunctions(ModuleOp module, ArrayRef<std::string> keep);

/// Gives every defined function of `module` the suffix `suffix`.
void renameFunctions(ModuleOp module, StringRef suffix);

/// The C++ main of the executable (`library`: the library's summa_program()
/// instead), which hands the runtime the program's tensor table.
void writeMain(raw_ostream &os, const ProgramInfo &p, ArrayRef<int64_t> grid,
               bool library);

/// The C++ main of a generator (summa-compile --generate): the tables of
/// the prefill and the decode step in a SummaGenerateDesc handed to
/// summaRtGenerate; sequences hold at most `maxLength` tokens. With
/// `library`, instead of a main, summa_generator() returns it (for
/// summaGeneratorInit).
void writeGeneratorMain(raw_ostream &os, const ProgramInfo &prefill,
                        const ProgramInfo &decode, ArrayRef<int64_t> grid,
                        int64_t maxLength, bool library);

/// The header of an --emit=lib generator: summa_generator() and, as
/// comments, its rows, prompt length, longest sequence and weights.
void writeGeneratorLibraryHeader(raw_ostream &os, const ProgramInfo &prefill,
                                 const ProgramInfo &decode,
                                 ArrayRef<int64_t> grid, int64_t maxLength,
                                 StringRef library);

/// The header of an --emit=lib library: summa_program() and, as comments,
/// the names and shapes of the model's tensors.
void writeLibraryHeader(raw_ostream &os, const ProgramInfo &p,
                        ArrayRef<int64_t> grid, StringRef library);

/// Compiles `mainCpp` and links it with `objects` and the runtime library
/// `runtimeLib` into `output` (a shared library if `library`), with the C++
/// compiler $SUMMA_CXX (default c++); `verbose` prints the command.
LogicalResult link(StringRef mainCpp, ArrayRef<std::string> objects,
                   StringRef output, StringRef runtimeLib, StringRef includeDir,
                   bool library, bool verbose);

} // namespace mlir::summa::driver

#endif // SUMMA_LIB_DRIVER_PROGRAM_H
