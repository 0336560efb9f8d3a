//===- summa-plan.cpp - choose a [q, q, d] grid for a model -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
//   summa-plan model.mlir --ranks P [--grid q,q,d] [--json] [--entry F]
//   summa-plan lm.mlir --generate --ranks P [--prompt-length P --new-tokens N]
//   summa-plan --describe layers=96,hidden=12288,heads=96,seq=2048,batch=1536
//              --ranks 4096 [--chart plan.svg]
//
// Prints, per grid of P ranks and for 1D Megatron and data parallelism, the
// collectives per rank (count and bytes by collective and group), the
// memory per rank and the predicted time, and marks the best grid. With a
// model file the grids are counted on the partitioned IR; with --describe
// a GPT model is planned from closed formulas. See docs/Planner.md.
//
// Exit status: 0 when a grid is chosen, 2 when no grid of P ranks can
// partition the model (the table is still printed), 1 on errors.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/InitAllSumma.h"
#include "summa/Pipelines/Pipelines.h"
#include "summa/Planner/Planner.h"
#include "summa/Tools/PanelReuseOptions.h"
#include "summa/Transforms/Generation.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
namespace plan = mlir::summa::plan;
namespace cl = llvm::cl;

static cl::OptionCategory category("summa-plan options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::init(""), cl::cat(category));
static cl::opt<int64_t> ranksOpt("ranks", cl::desc("number of ranks P"),
                                 cl::value_desc("P"), cl::cat(category));
static cl::list<int64_t> gridOpt("grid", cl::desc("plan only this grid q,q,d"),
                                 cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> json("json", cl::desc("print JSON instead of a table"),
                          cl::cat(category));
static cl::opt<std::string>
    chartFile("chart",
              cl::desc("also draw the predicted time per strategy, split "
                       "into GEMMs, local work and each collective kind, as "
                       "an SVG file"),
              cl::value_desc("file.svg"), cl::cat(category));
static cl::opt<std::string>
    entryOpt("entry",
             cl::desc("function to plan (default: the only public "
                      "one)"),
             cl::cat(category));
static cl::opt<std::string> describeOpt(
    "describe",
    cl::desc("plan a GPT model given by its sizes instead of a file: "
             "layers=L,hidden=H,heads=NH,seq=S,batch=B[,ffn=F]"
             "[,dtype=bf16|f16|f32|f64][,final_ln=0|1]"),
    cl::value_desc("spec"), cl::cat(category));
static cl::opt<int64_t> gpusPerNode("gpus-per-node",
                                    cl::desc("ranks per node (default 8)"),
                                    cl::init(8), cl::cat(category));
static cl::opt<double> nvlinkGBps(
    "nvlink-gbps",
    cl::desc("NVLink bandwidth per direction, GB/s (bytes; default 450)"),
    cl::init(450), cl::cat(category));
static cl::opt<double>
    ibGBps("ib-gbps",
           cl::desc("network bandwidth per GPU, GB/s (bytes; default 50 = "
                    "400 Gb/s InfiniBand)"),
           cl::init(50), cl::cat(category));
static cl::opt<double> nvlinkAlphaUs("nvlink-alpha-us",
                                     cl::desc("NVLink latency, us (default 2)"),
                                     cl::init(2), cl::cat(category));
static cl::opt<double> ibAlphaUs("ib-alpha-us",
                                 cl::desc("network latency, us (default 5)"),
                                 cl::init(5), cl::cat(category));
static cl::opt<double> gemmTflops(
    "gemm-tflops",
    cl::desc("GEMM peak, TFLOP/s, for every element type (default: H200 "
             "989 for bf16/f16, 67 for f32 and f64)"),
    cl::cat(category));
static cl::opt<double>
    gemmEfficiency("gemm-efficiency",
                   cl::desc("fraction of the GEMM peak reached (default 0.7)"),
                   cl::init(0.7), cl::cat(category));
static cl::opt<double> localGBps(
    "local-gbps",
    cl::desc("bytes per second the local loop nests (every linalg op but "
             "the GEMMs) read and write, GB/s (default 3360: H200's 4.8 TB/s "
             "at 0.7)"),
    cl::init(3360), cl::cat(category));
static cl::opt<bool>
    timePlanning("time",
                 cl::desc("print the seconds spent planning (parsing "
                          "excluded) to stderr"),
                 cl::cat(category));
static cl::opt<double>
    memoryGB("memory-gb",
             cl::desc("memory per rank, GB (default 141, H200; 0: no limit)"),
             cl::init(141), cl::cat(category));

static cl::opt<std::string> machineFile(
    "machine",
    cl::desc("predict with the rates of this machine file (summa-plan "
             "--calibrate) instead of the H200 defaults"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<bool>
    zero("zero",
         cl::desc("plan training steps with the optimizer state split over "
                  "the grid's depth, as summa-compile --zero"),
         cl::init(false), cl::cat(category));
static cl::opt<bool> calibrate(
    "calibrate",
    cl::desc("measure this machine with summa-calibrate under mpiexec and "
             "write a machine file (-o); with a model, then plan it on it"),
    cl::cat(category));
static cl::opt<std::string>
    outputFile("o",
               cl::desc("--calibrate: the machine file to write "
                        "(default summa-machine.json)"),
               cl::value_desc("file"), cl::init("summa-machine.json"),
               cl::cat(category));
static cl::list<int64_t> calibrateRanks(
    "calibrate-ranks",
    cl::desc("--calibrate: numbers of ranks to measure with (default "
             "1,2,4,8)"),
    cl::CommaSeparated, cl::cat(category));
static cl::opt<bool>
    calibrateQuick("calibrate-quick",
                   cl::desc("--calibrate: tiny sizes and short trials (a "
                            "test that it runs, not a measurement)"),
                   cl::cat(category));
static cl::opt<std::string> calibrateProgram(
    "calibrate-program",
    cl::desc("--calibrate: the summa-calibrate to run (default: the one "
             "beside summa-plan)"),
    cl::value_desc("path"), cl::cat(category));
static cl::opt<std::string>
    mpirunOpt("mpirun",
              cl::desc("--calibrate: the mpiexec to run it with (default: "
                       "the one the build found)"),
              cl::value_desc("path"), cl::cat(category));

static cl::opt<bool> generate(
    "generate",
    cl::desc("plan a causal language model's generation: derive its prefill "
             "and KV-cached decode step from the forward "
             "(summa-derive-generation, as summa-compile --generate), plan "
             "the prefill in 2.5D SUMMA and weight-stationary (the faster "
             "per grid, as summa-compile --generate chooses) and the decode "
             "step weight-stationary, and choose the grid of least prefill + "
             "decode time for --new-tokens tokens"),
    cl::cat(category));
static cl::opt<int64_t> promptLengthOpt(
    "prompt-length",
    cl::desc("with --generate: the prompt's tokens per row (default 1)"),
    cl::init(1), cl::cat(category));
static cl::opt<int64_t> newTokensOpt(
    "new-tokens",
    cl::desc("with --generate: the tokens generated per row (default: up to "
             "the export's sequence length)"),
    cl::init(0), cl::cat(category));

static summa::PanelReuseOptions
    panelReuse(category,
               "plan every grid with summa-reuse-panels (kept forward panels "
               "instead of broadcasting them again) and also without it");

static int fail(const Twine &message) {
  llvm::errs() << "summa-plan: error: " << message << "\n";
  return 1;
}

static double now() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

static void reportTime(double start) {
  if (timePlanning)
    llvm::errs() << llvm::format("summa-plan: planned in %.6f s\n",
                                 now() - start);
}

/// The table or JSON, and --chart; false if the chart cannot be written.
static bool print(const plan::Plan &p, const plan::PlanOptions &options) {
  if (json)
    plan::printPlanJson(p, options, llvm::outs());
  else
    plan::printPlanTable(p, options, llvm::outs());
  if (chartFile.empty())
    return true;
  std::error_code error;
  llvm::raw_fd_ostream chart(chartFile, error, llvm::sys::fs::OF_Text);
  if (error) {
    fail("cannot write --chart '" + chartFile.getValue() +
         "': " + error.message());
    return false;
  }
  plan::printPlanChart(p, options, chart);
  return true;
}

/// The options of the command line, checked; fails with a message.
static FailureOr<plan::PlanOptions> readOptions(std::string &error) {
  plan::PlanOptions options;
  options.ranks = ranksOpt;
  if (!gridOpt.empty()) {
    SmallVector<int64_t, 3> grid(gridOpt.begin(), gridOpt.end());
    if (!summa::isGridShape(grid)) {
      error = "--grid must be q,q,d with q >= 1 and d >= 1";
      return failure();
    }
    if (grid[0] * grid[1] * grid[2] != ranksOpt) {
      error = "--grid " + std::to_string(grid[0]) + "," +
              std::to_string(grid[1]) + "," + std::to_string(grid[2]) +
              " has " + std::to_string(grid[0] * grid[1] * grid[2]) +
              " ranks, not --ranks " + std::to_string(ranksOpt);
      return failure();
    }
    options.grid = grid;
  }
  const char *bad = gpusPerNode <= 0 ? "--gpus-per-node must be positive"
                    : nvlinkGBps <= 0 || ibGBps <= 0
                        ? "link bandwidths must be positive"
                    : nvlinkAlphaUs < 0 || ibAlphaUs < 0
                        ? "link latencies must not be negative"
                    : gemmEfficiency <= 0 || gemmEfficiency > 1
                        ? "--gemm-efficiency must be in (0, 1]"
                    : gemmTflops.getNumOccurrences() && gemmTflops <= 0
                        ? "--gemm-tflops must be positive"
                    : memoryGB < 0   ? "--memory-gb must not be negative"
                    : localGBps <= 0 ? "--local-gbps must be positive"
                                     : nullptr;
  if (bad) {
    error = bad;
    return failure();
  }
  options.entry = entryOpt;
  options.gpusPerNode = gpusPerNode;
  options.nvlink = {nvlinkAlphaUs * 1e-6, nvlinkGBps * 1e9};
  options.network = {ibAlphaUs * 1e-6, ibGBps * 1e9};
  if (gemmTflops.getNumOccurrences())
    options.peakFlopsOverride = gemmTflops * 1e12;
  options.gemmEfficiency = gemmEfficiency;
  options.localBytesPerSecond = localGBps * 1e9;
  options.memoryCapacityBytes = memoryGB * 1e9;
  options.panelReuseBudget = panelReuse.budgetOrNone(error);
  options.shardOptimizerState = zero;
  if (!error.empty())
    return failure();
  return options;
}

/// Uses `machine` for the predictions: its rates, and its ranks per node
/// unless --gpus-per-node says otherwise.
static void useMachine(plan::PlanOptions &options, plan::Machine machine) {
  if (machine.ranksPerNode > 0 && !gpusPerNode.getNumOccurrences())
    options.gpusPerNode = machine.ranksPerNode;
  options.machine = std::make_shared<plan::Machine>(std::move(machine));
}

/// The summa-calibrate and mpiexec to run.
static plan::CalibrateOptions calibrateOptions(const char *argv0) {
  plan::CalibrateOptions c;
  c.output = outputFile;
  if (!calibrateRanks.empty())
    c.ranks.assign(calibrateRanks.begin(), calibrateRanks.end());
  c.quick = calibrateQuick;
  c.program = calibrateProgram;
  // Beside summa-plan, else where the build put them.
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&calibrateOptions));
  auto beside = [&](StringRef name) {
    SmallString<256> path(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  if (llvm::sys::fs::can_execute(beside("summa-compile")))
    c.compiler = beside("summa-compile");
  if (c.program.empty()) {
    c.program = beside("summa-calibrate");
#ifdef SUMMA_CALIBRATE_PROGRAM
    if (!llvm::sys::fs::exists(c.program))
      c.program = SUMMA_CALIBRATE_PROGRAM;
#endif
  }
  c.mpirun = mpirunOpt;
#ifdef SUMMA_MPIEXEC
  if (c.mpirun.empty())
    c.mpirun = SUMMA_MPIEXEC;
  SmallVector<StringRef> flags;
  StringRef(SUMMA_MPIEXEC_FLAGS).split(flags, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef flag : flags)
    c.mpirunFlags.push_back(flag.str());
#endif
  if (c.mpirun.empty()) {
    auto found = llvm::sys::findProgramByName("mpirun");
    c.mpirun = found ? *found : "mpirun";
  }
  return c;
}

/// --calibrate: measures the machine, writes the file, prints its rates.
static LogicalResult runCalibrate(plan::PlanOptions &options,
                                  const char *argv0) {
  plan::CalibrateOptions c = calibrateOptions(argv0);
  if (!llvm::sys::fs::can_execute(c.program)) {
    fail("--calibrate needs summa-calibrate, not found at '" + c.program +
         "' (build it, or give --calibrate-program)");
    return failure();
  }
  std::string error;
  FailureOr<plan::Machine> machine =
      plan::calibrateMachine(c, llvm::errs(), error);
  if (failed(machine)) {
    fail("--calibrate: " + error);
    return failure();
  }
  llvm::errs() << "summa-plan: wrote machine file '" << c.output << "'\n";
  useMachine(options, std::move(*machine));
  return success();
}

/// --generate: the prefill and the decode step derived from the forward
/// in `module`, each planned on every grid; then the grids both can run,
/// by prefill + (new tokens - 1) decode calls. The exit status.
static int planGeneration(ModuleOp module, plan::PlanOptions options) {
  func::FuncOp forward;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isDeclaration() && fn.isPublic() &&
        (entryOpt.empty() || fn.getSymName() == entryOpt)) {
      if (forward)
        return fail("--generate: more than one public function; name the "
                    "forward with --entry");
      forward = fn;
    }
  if (!forward)
    return fail("--generate: no forward function to derive from");
  auto ids = dyn_cast<RankedTensorType>(
      forward.getNumArguments() ? forward.getArgumentTypes()[0] : Type());
  if (!ids || ids.getRank() != 2 || !ids.hasStaticShape())
    return fail("--generate: argument 0 of @" + forward.getSymName() +
                " must be the token ids [batch, sequence]");
  int64_t seq = ids.getDimSize(1);
  int64_t prompt = promptLengthOpt;
  int64_t newTokens = newTokensOpt > 0 ? newTokensOpt : seq - prompt;
  if (prompt + newTokens > seq)
    return fail("--generate: --prompt-length " + Twine(prompt) +
                " and --new-tokens " + Twine(newTokens) +
                " do not fit the export's sequence of " + Twine(seq));
  std::string name = forward.getSymName().str();
  PassManager derive(module.getContext());
  derive.addPass(summa::createSummaDeriveGeneration(
      summa::generatorDerivation(name, prompt)));
  if (failed(derive.run(module)))
    return 1;
  double start = now();
  // The prefill in both forms (2.5D SUMMA, weight-stationary), the decode
  // step weight-stationary.
  FailureOr<plan::PrefillForms> forms =
      plan::planPrefillForms(module, name + "_prefill", options);
  if (failed(forms))
    return 1;
  options.entry = name + "_decode";
  FailureOr<plan::Plan> decodePlan = plan::planModule(module, options);
  if (failed(decodePlan))
    return 1;
  reportTime(start);
  const plan::Plan &decode = *decodePlan;
  // The grids both phases can run, by the time of the whole generation,
  // each with the faster form of its prefill.
  struct Row {
    std::string name;
    double prefill = 0, decode = 0, total = 0;
    int64_t prefillBytes = 0, decodeBytes = 0, decodeBroadcast = 0;
    bool stationary = false;
    bool fits = true;
    /// The prefill's other form, where it is feasible.
    double otherPrefill = -1;
    int64_t otherPrefillBytes = 0;
  };
  SmallVector<Row> rows;
  int best = -1;
  for (const plan::StrategyPlan &b : decode.strategies) {
    if (b.kind != plan::StrategyKind::Grid || !b.feasible)
      continue;
    bool stationary = false;
    const plan::StrategyPlan *a = forms->chosen(b.name, &stationary);
    if (!a)
      continue;
    Row row{a->name,
            a->seconds(),
            b.seconds(),
            a->seconds() + (newTokens - 1) * b.seconds(),
            a->payloadBytes(),
            b.payloadBytes(),
            b.broadcastBytes(),
            stationary,
            a->fitsMemory && b.fitsMemory};
    const plan::Plan &otherForm = stationary ? forms->summa : forms->stationary;
    if (const plan::StrategyPlan *other = otherForm.feasibleGrid(b.name)) {
      row.otherPrefill = other->seconds();
      row.otherPrefillBytes = other->payloadBytes();
    }
    rows.push_back(row);
    if (row.fits && (best < 0 || row.total < rows[best].total))
      best = static_cast<int>(rows.size()) - 1;
  }
  raw_ostream &os = llvm::outs();
  if (json) {
    os << "{\"prefill\": ";
    plan::printPlanJson(forms->summa, options, os);
    os << ", \"prefill_stationary\": ";
    plan::printPlanJson(forms->stationary, options, os);
    os << ", \"decode\": ";
    plan::printPlanJson(decode, options, os);
    os << ", \"generation\": {\"prompt\": " << prompt
       << ", \"new_tokens\": " << newTokens << ", \"grids\": [";
    for (auto [i, row] : llvm::enumerate(rows))
      os << (i ? ", " : "") << "{\"grid\": \"" << row.name
         << "\", \"prefill_form\": \""
         << (row.stationary ? "weight-stationary" : "summa")
         << "\", \"prefill_seconds\": " << llvm::format("%.9g", row.prefill)
         << ", \"prefill_bytes\": " << row.prefillBytes
         << ", \"decode_seconds_per_token\": "
         << llvm::format("%.9g", row.decode)
         << ", \"decode_bytes_per_token\": " << row.decodeBytes
         << ", \"total_seconds\": " << llvm::format("%.9g", row.total) << "}";
    os << "], \"best\": "
       << (best >= 0 ? "\"" + rows[best].name + "\"" : std::string("null"))
       << "}}\n";
    return best >= 0 ? 0 : 2;
  }
  os << "== prefill: @" << forms->summa.model.entry << " (" << prompt
     << " prompt tokens per row, once; 2.5D SUMMA)\n";
  plan::printPlanTable(forms->summa, options, os);
  os << "\n== prefill: @" << forms->stationary.model.entry << " (" << prompt
     << " prompt tokens per row, once; weight-stationary)\n";
  plan::printPlanTable(forms->stationary, options, os);
  os << "\n== decode: @" << decode.model.entry
     << " (one token per row, once per new token; weight-stationary)\n";
  plan::printPlanTable(decode, options, os);
  os << "\n== generation: " << prompt << " prompt tokens, " << newTokens
     << " new tokens per row (the prefill, then " << newTokens - 1
     << " decode calls)\n";
  os << llvm::format("  %-10s %-10s %12s %14s %18s %14s %12s\n", "strategy",
                     "prefill as", "prefill", "decode/token",
                     "decode bytes/token", "of which bcast", "total");
  for (auto [i, row] : llvm::enumerate(rows))
    os << llvm::format(
        "%s %-10s %-10s %12s %14s %18lld %14lld %12s%s\n",
        static_cast<int>(i) == best ? "*" : " ", row.name.c_str(),
        row.stationary ? "stationary" : "SUMMA",
        plan::formatSeconds(row.prefill).c_str(),
        plan::formatSeconds(row.decode).c_str(), (long long)row.decodeBytes,
        (long long)row.decodeBroadcast, plan::formatSeconds(row.total).c_str(),
        row.fits ? "" : " !");
  // Why each prefill takes its form: what it moves and the time, against
  // the other form.
  for (const Row &row : rows)
    if (row.otherPrefill >= 0)
      os << "prefill on " << row.name << ": "
         << (row.stationary ? "weight-stationary" : "2.5D SUMMA") << ", "
         << row.prefillBytes << " bytes per rank in "
         << plan::formatSeconds(row.prefill) << " against "
         << row.otherPrefillBytes << " in "
         << plan::formatSeconds(row.otherPrefill) << " "
         << (row.stationary ? "with SUMMA's weight panels"
                            : "with the weights in place")
         << "\n";
  if (best < 0) {
    os << "no grid of " << options.ranks
       << " ranks runs both the prefill and the decode step\n";
    return 2;
  }
  const Row &chosen = rows[best];
  os << "best: " << chosen.name << ": " << plan::formatSeconds(chosen.total)
     << " for the generation (prefill " << plan::formatSeconds(chosen.prefill)
     << ", decode " << plan::formatSeconds(chosen.decode) << " per token";
  for (const Row &row : rows)
    if (&row != &chosen && row.fits)
      os << "; " << row.name << ": "
         << llvm::format("%.2f", row.total / chosen.total) << "x the time";
  os << ")\n";
  return 0;
}

/// Plans a model file; the exit status.
static int planFile(const plan::PlanOptions &options) {
  DialectRegistry registry;
  summa::registerAllSummaDialects(registry);
  MLIRContext context(registry);
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  PassManager import(&context);
  summa::buildImportPipeline(import);
  if (failed(import.run(*module)))
    return 1;
  if (generate)
    return planGeneration(*module, options);
  double start = now();
  FailureOr<plan::Plan> p = plan::planModule(*module, options);
  if (failed(p))
    return 1;
  reportTime(start);
  if (!print(*p, options))
    return 1;
  return p->best >= 0 ? 0 : 2;
}

/// Plans a --describe'd GPT; the exit status.
static int planDescription(const plan::PlanOptions &options) {
  std::string error;
  FailureOr<plan::GptDescription> model =
      plan::parseDescription(describeOpt, error);
  if (failed(model))
    return fail("--describe: " + error);
  double start = now();
  FailureOr<plan::Plan> p = plan::planDescribed(*model, options, error);
  if (failed(p))
    return fail(error);
  reportTime(start);
  if (!print(*p, options))
    return 1;
  return p->best >= 0 ? 0 : 2;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "summa-plan: choose a [q, q, d] grid for a model\n\n"
      "  summa-plan model.mlir --ranks 64 [--grid 4,4,4] [--json]\n"
      "  summa-plan --describe layers=96,hidden=12288,heads=96,seq=2048,"
      "batch=1536 --ranks 4096\n"
      "  summa-plan --calibrate [-o machine.json]\n"
      "  summa-plan model.mlir --ranks 8 --machine machine.json\n");

  bool model = !inputFile.empty() || describeOpt.getNumOccurrences();
  if (calibrate && machineFile.getNumOccurrences())
    return fail("give either --calibrate or --machine, not both");
  if (ranksOpt.getNumOccurrences() == 0 && (model || !calibrate))
    return fail("--ranks P is required");
  if (ranksOpt.getNumOccurrences() && ranksOpt <= 0)
    return fail("--ranks must be positive, got " + Twine(ranksOpt));
  if (!inputFile.empty() && describeOpt.getNumOccurrences())
    return fail("give either a model file or --describe, not both");
  std::string error;
  FailureOr<plan::PlanOptions> options = readOptions(error);
  if (failed(options))
    return fail(error);
  if (machineFile.getNumOccurrences()) {
    FailureOr<plan::Machine> machine =
        plan::readMachineFile(machineFile, error);
    if (failed(machine))
      return fail(error);
    useMachine(*options, std::move(*machine));
  }
  if (calibrate && failed(runCalibrate(*options, argv[0])))
    return 1;
  if (calibrate && !model)
    return 0;
  if (generate && (describeOpt.getNumOccurrences() || !chartFile.empty()))
    return fail("--generate plans a model file, without --chart");
  if (!generate &&
      (promptLengthOpt.getNumOccurrences() || newTokensOpt.getNumOccurrences()))
    return fail("--prompt-length and --new-tokens go with --generate");
  if (generate && (promptLengthOpt < 1 || newTokensOpt < 0))
    return fail("--prompt-length must be positive and --new-tokens not "
                "negative");
  if (describeOpt.getNumOccurrences())
    return planDescription(*options);
  if (inputFile.empty())
    return fail("no model: give a model.mlir or --describe");
  return planFile(*options);
}
