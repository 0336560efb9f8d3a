//===- TestGradcheck.cpp - --gradcheck inside summa-opt ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-test-gradcheck: the compiled binary's --gradcheck run inside
// summa-opt, for lit tests of derivative rules that need no summa-compile,
// no MPI and no launch. For every function with `summa.gradcheck` (a step
// summa-differentiate derived), the loss and gradients' functions it names
// are compiled as the binary compiles them (summa-promote-floats to f64,
// buildReferenceLoweringPipeline), run by MLIR's ExecutionEngine on inputs
// drawn from the seed (floats uniform in [-0.5, 0.5); integers 0 and 1 in
// turn, ids any table of two rows or more can look up), and
// checked by the binary's own numerical core (runtime/common/
// FiniteDifferences.h). A remark per parameter says it passes; a parameter
// past the tolerance is an error at the step with its relative error.
//
//===----------------------------------------------------------------------===//

#include "FiniteDifferences.h"

#include "summa/Codegen/Passes.h"
#include "summa/Dialect/Summa/IR/GradcheckAttr.h"
#include "summa/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>

using namespace mlir;
using namespace mlir::summa;

namespace {

/// A dense row-major tensor in host memory of one of the types the lowered
/// functions take.
struct Buffer {
  RankedTensorType type;
  std::vector<char> bytes;

  explicit Buffer(Type t) : type(cast<RankedTensorType>(t)) {
    bytes.assign(type.getNumElements() * elementBytes(), 0);
  }
  int64_t count() const { return type.getNumElements(); }
  size_t elementBytes() const {
    return llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  double load(int64_t i) const {
    Type e = type.getElementType();
    const char *at = bytes.data() + i * elementBytes();
    if (e.isF64())
      return *reinterpret_cast<const double *>(at);
    if (e.isF32())
      return *reinterpret_cast<const float *>(at);
    if (e.isInteger(64))
      return static_cast<double>(*reinterpret_cast<const int64_t *>(at));
    if (e.isInteger(32))
      return *reinterpret_cast<const int32_t *>(at);
    return 0;
  }
  void store(int64_t i, double v) {
    Type e = type.getElementType();
    char *at = bytes.data() + i * elementBytes();
    if (e.isF64())
      *reinterpret_cast<double *>(at) = v;
    else if (e.isF32())
      *reinterpret_cast<float *>(at) = static_cast<float>(v);
  }
  void *data() { return bytes.data(); }
};

struct TestGradcheckPass
    : public PassWrapper<TestGradcheckPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestGradcheckPass)

  TestGradcheckPass() = default;
  TestGradcheckPass(const TestGradcheckPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "summa-test-gradcheck"; }
  StringRef getDescription() const final {
    return "Test only: run --gradcheck on every step summa-differentiate "
           "marked, by JIT, and report each parameter's error";
  }

  Option<int64_t> directions{*this, "dirs",
                             llvm::cl::desc("directions per parameter"),
                             llvm::cl::init(2)};
  Option<uint64_t> seed{*this, "seed", llvm::cl::desc("the inputs' seed"),
                        llvm::cl::init(42)};

  void runOnOperation() override;
  LogicalResult check(func::FuncOp step, const GradcheckFunctions &names);
};

} // namespace

void TestGradcheckPass::runOnOperation() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  SmallVector<func::FuncOp> steps;
  for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
    if (func->hasAttr(kGradcheckAttrName))
      steps.push_back(func);
  for (func::FuncOp step : steps) {
    std::optional<GradcheckFunctions> names = getGradcheckFunctions(step);
    if (!names || failed(check(step, *names)))
      return signalPassFailure();
  }
}

LogicalResult TestGradcheckPass::check(func::FuncOp step,
                                       const GradcheckFunctions &names) {
  ModuleOp module = getOperation();
  auto loss = module.lookupSymbol<func::FuncOp>(names.loss);
  auto gradients = module.lookupSymbol<func::FuncOp>(names.gradients);
  if (!loss || !gradients)
    return step.emitError() << "gradcheck: the functions '"
                            << kGradcheckAttrName << "' names are not here";
  // The two functions alone, as summa-compile builds them into the binary.
  OwningOpRef<ModuleOp> jit = ModuleOp::create(module.getLoc());
  std::string lossName = (names.loss + "__gradcheck").str();
  std::string gradientsName = (names.gradients + "__gradcheck").str();
  for (auto [fn, name] :
       {std::pair(loss, lossName), std::pair(gradients, gradientsName)}) {
    auto copy = cast<func::FuncOp>(fn->clone());
    copy->removeAttr(kGradcheckAttrName);
    copy.setPublic();
    copy.setSymName(name);
    jit->getBody()->push_back(copy);
  }
  bool f64;
  {
    PassManager promote(&getContext());
    promote.addPass(createSummaPromoteFloats());
    f64 = succeeded(promote.run(*jit));
  }
  PassManager lower(&getContext());
  buildReferenceLoweringPipeline(lower, {lossName, gradientsName});
  // The argument and result types before lowering (f64 where promoted).
  auto lossFn = jit->lookupSymbol<func::FuncOp>(lossName);
  auto gradFn = jit->lookupSymbol<func::FuncOp>(gradientsName);
  SmallVector<Type> inputTypes(lossFn.getArgumentTypes());
  SmallVector<Type> lossTypes(lossFn.getResultTypes());
  SmallVector<Type> gradTypes(gradFn.getResultTypes());
  if (failed(lower.run(*jit)))
    return step.emitError() << "gradcheck: the functions did not lower";
  ExecutionEngineOptions engineOptions;
  SmallVector<StringRef> libraries = {SUMMA_MLIR_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = libraries;
  auto engine = ExecutionEngine::create(*jit, engineOptions);
  if (!engine)
    return step.emitError()
           << "gradcheck: " << llvm::toString(engine.takeError());
  auto lookup = [&](StringRef name) -> void (*)(void **) {
    auto address = (*engine)->lookup(name);
    if (!address) {
      llvm::consumeError(address.takeError());
      return nullptr;
    }
    return reinterpret_cast<void (*)(void **)>(*address);
  };
  void (*lossCall)(void **) = lookup(lossName);
  void (*gradCall)(void **) = lookup(gradientsName);
  if (!lossCall || !gradCall)
    return step.emitError() << "gradcheck: the compiled functions are missing";

  // Inputs from the seed; the loss function's outputs; the gradients.
  std::vector<Buffer> inputs, lossOutputs, gradOutputs;
  for (auto [i, type] : llvm::enumerate(inputTypes)) {
    inputs.emplace_back(type);
    Buffer &in = inputs.back();
    bool isFloat = isa<FloatType>(in.type.getElementType());
    for (int64_t e = 0; e < in.count(); ++e) {
      if (isFloat)
        in.store(
            e, 0.5 * ::summa::rt::inputValue(seed, static_cast<int32_t>(i), e));
      else if (in.type.getElementType().isInteger(64))
        reinterpret_cast<int64_t *>(in.data())[e] = e % 2;
      else if (in.type.getElementType().isInteger(32))
        reinterpret_cast<int32_t *>(in.data())[e] = e % 2;
    }
  }
  for (Type type : lossTypes)
    lossOutputs.emplace_back(type);
  for (Type type : gradTypes)
    gradOutputs.emplace_back(type);
  std::vector<void *> lossArgs, gradArgs;
  for (Buffer &b : inputs) {
    lossArgs.push_back(b.data());
    gradArgs.push_back(b.data());
  }
  for (Buffer &b : lossOutputs)
    lossArgs.push_back(b.data());
  for (Buffer &b : gradOutputs)
    gradArgs.push_back(b.data());
  auto evaluate = [&]() {
    lossCall(lossArgs.data());
    double sum = 0;
    for (int64_t e = 0; e < lossOutputs[0].count(); ++e)
      sum += lossOutputs[0].load(e);
    return sum;
  };
  gradCall(gradArgs.data());
  double loss0 = evaluate();

  ::summa::rt::FiniteDifferenceSettings settings =
      ::summa::rt::FiniteDifferenceSettings::forF64(f64);
  bool ok = true;
  for (auto [p, arg] : llvm::enumerate(names.params)) {
    Buffer &param = inputs[arg];
    Buffer &grad = gradOutputs[p + 1];
    ::summa::rt::FiniteDifferenceParameter view;
    view.count = param.count();
    view.get = [&](int64_t e) { return param.load(e); };
    view.set = [&](int64_t e, double v) { param.store(e, v); };
    view.gradient = [&](int64_t e) { return grad.load(e); };
    if (auto padding =
            gradients.getArgAttrOfType<IntegerAttr>(arg, kPaddingIndexAttrName);
        padding && param.type.getRank() > 0 && param.type.getDimSize(0) > 0) {
      view.frozenRow = padding.getInt();
      view.rowSize = param.count() / param.type.getDimSize(0);
    }
    ::summa::rt::FiniteDifferenceResult result = ::summa::rt::checkParameter(
        view, static_cast<int>(p), evaluate, loss0, seed, directions, settings);
    auto label = gradients.getArgAttrOfType<StringAttr>(arg, kNameAttrName);
    std::string name =
        label ? label.getValue().str() : "arg" + std::to_string(arg);
    bool good = result.finite && result.worst <= settings.tolerance;
    if (!good) {
      step.emitError() << "gradcheck: FAIL " << name
                       << " rel_err=" << result.worst << " (tolerance "
                       << settings.tolerance << ")";
      ok = false;
      continue;
    }
    step.emitRemark() << "gradcheck: " << name << " passes";
  }
  return success(ok);
}

namespace mlir::summa::test {
void registerTestGradcheckPass() { PassRegistration<TestGradcheckPass>(); }
} // namespace mlir::summa::test
