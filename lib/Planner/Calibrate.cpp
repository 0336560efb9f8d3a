//===- Calibrate.cpp - summa-plan --calibrate -------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// calibrateMachine: runs summa-calibrate (runtime/calibrate) under mpiexec
// for each number of ranks, reads the samples each run writes, fits
//
//   GEMM:        seconds per call = overhead + flops / rate
//   collective:  seconds per call = alpha + payload bytes / rate
//
// by least squares on relative errors (so the small messages fix the
// latency and the large ones the bandwidth), takes the memory rate as the
// bytes of summa-calibrate's elementwise pass over its time; then, with
// summa-compile, compiles two loop nests, runs them on as many ranks and
// takes from their times the rates compiled code gets (which replace the
// memory rate: a compiled program allocates its intermediates each call):
// the bytes per second of an elementwise pass and the iterations per
// second of a loop nest whose operands fit in the caches. It writes the
// machine file (docs/Planner.md, "Calibration").
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <ctime>
#include <unistd.h>

extern char **environ;

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

/// Fits seconds = a + b * x to (x, seconds) samples, minimising the
/// relative error; a >= 0, b > 0. Returns {a, b}.
static std::pair<double, double>
fitLine(ArrayRef<std::pair<double, double>> samples) {
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (auto [x, y] : samples) {
    if (!(y > 0))
      continue; // below the clock's resolution
    double w = 1 / (y * y);
    sw += w;
    sx += w * x;
    sy += w * y;
    sxx += w * x * x;
    sxy += w * x * y;
  }
  double det = sw * sxx - sx * sx;
  double a = 0, b = 0;
  if (samples.size() >= 2 && det > 0) {
    a = (sxx * sy - sx * sxy) / det;
    b = (sw * sxy - sx * sy) / det;
  }
  if (a < 0 || b <= 0) {
    // Through the origin, or the largest sample alone.
    a = 0;
    b = sxx > 0 ? sxy / sxx : 0;
  }
  if (b <= 0 && !samples.empty())
    b = samples.back().second / std::max(samples.back().first, 1.0);
  return {a, b};
}

/// Runs `args` (args[0] the program) with its output in `output`, under
/// an environment that lets Open MPI oversubscribe and run as root.
static LogicalResult run(ArrayRef<std::string> args, std::string &output,
                         std::string &error) {
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  // Open MPI refuses more ranks than cores, or root, unless told; other
  // MPI implementations ignore these.
  SmallVector<std::string> env;
  for (char **e = environ; e && *e; ++e)
    env.push_back(*e);
  for (const char *var :
       {"OMPI_MCA_rmaps_base_oversubscribe=1", "OMPI_ALLOW_RUN_AS_ROOT=1",
        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"})
    env.push_back(var);
  SmallVector<StringRef> envRefs(env.begin(), env.end());
  SmallString<128> log;
  llvm::sys::fs::createTemporaryFile("summa-calibrate", "log", log);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(args[0], argRefs, envRefs, redirects,
                                         /*SecondsToWait=*/1200,
                                         /*MemoryLimit=*/0, &message);
  if (auto buffer = llvm::MemoryBuffer::getFile(log))
    output = (*buffer)->getBuffer().str();
  llvm::sys::fs::remove(log);
  if (status == 0)
    return success();
  error = "'" + llvm::join(args, " ") + "' failed";
  if (!message.empty())
    error += " (" + message + ")";
  else
    error += " with status " + std::to_string(status);
  if (!output.empty())
    error += ":\n" + StringRef(output).take_back(2000).str();
  return failure();
}

/// mpiexec -np `ranks` [flags] `program` `args`...
static SmallVector<std::string> underMpi(const CalibrateOptions &options,
                                         int64_t ranks, StringRef program) {
  SmallVector<std::string> args{options.mpirun, "-np", std::to_string(ranks)};
  llvm::append_range(args, options.mpirunFlags);
  args.push_back(program.str());
  return args;
}

/// Runs one summa-calibrate on `ranks` ranks writing `out`.
static LogicalResult runCalibration(const CalibrateOptions &options,
                                    int64_t ranks, StringRef out,
                                    std::string &error) {
  SmallVector<std::string> args = underMpi(options, ranks, options.program);
  args.push_back("--out");
  args.push_back(out.str());
  if (options.quick)
    args.push_back("--quick");
  std::string output;
  return run(args, output, error);
}

/// A loop nest with a reduction that summa-compile leaves as loops:
/// out[t, j] = sum over k of max(x[t, k], y[k, j]) on a grid [1, 1, P] (the
/// rows of x split over depth), rows * k * j iterations per rank; the
/// innermost loop (k) strides through y, which stays in the caches or not
/// as k * j * 4 bytes does.
static std::string loopKernel(int64_t ranks, int64_t rows, int64_t k,
                              int64_t j) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto tensor = [](int64_t a, int64_t b) {
    return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "xf32>";
  };
  std::string x = tensor(rows * ranks, k), y = tensor(k, j),
              o = tensor(rows * ranks, j);
  os << "#x = affine_map<(d0, d1, d2) -> (d0, d2)>\n"
     << "#y = affine_map<(d0, d1, d2) -> (d2, d1)>\n"
     << "#o = affine_map<(d0, d1, d2) -> (d0, d1)>\n"
     << "func.func @loops(%x: " << x
     << " {summa.role = \"activation\"}, %y: " << y << ") -> " << o << " {\n"
     << "  %e = tensor.empty() : " << o << "\n"
     << "  %z = arith.constant 0.0 : f32\n"
     << "  %f = linalg.fill ins(%z : f32) outs(%e : " << o << ") -> " << o
     << "\n"
     << "  %r = linalg.generic {indexing_maps = [#x, #y, #o], iterator_types "
        "= [\"parallel\", \"parallel\", \"reduction\"]} ins(%x, %y : "
     << x << ", " << y << ") outs(%f : " << o << ") {\n"
     << "  ^bb0(%a: f32, %b: f32, %acc: f32):\n"
     << "    %c = arith.cmpf olt, %a, %b : f32\n"
     << "    %v = arith.select %c, %b, %a : f32\n"
     << "    %s = arith.addf %acc, %v : f32\n"
     << "    linalg.yield %s : f32\n"
     << "  } -> " << o << "\n"
     << "  return %r : " << o << "\n"
     << "}\n";
  return text;
}

/// A loop nest whose innermost loop strides through an accumulator far
/// larger than the caches (the one-hot product of an embedding's gradient):
/// out[k, j] += x[0, j] with k innermost, out [k * P, j] split over depth;
/// k * j iterations per rank, each a cache line read and written.
static std::string stridedKernel(int64_t ranks, int64_t k, int64_t j) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string x = "tensor<1x" + std::to_string(j) + "xf32>";
  std::string o =
      "tensor<" + std::to_string(k * ranks) + "x" + std::to_string(j) + "xf32>";
  os << "#x = affine_map<(d0, d1, d2) -> (d0, d1)>\n"
     << "#o = affine_map<(d0, d1, d2) -> (d2, d1)>\n"
     << "func.func @strided(%x: " << x << ", %acc: " << o
     << " {summa.role = \"activation\"}) -> " << o << " {\n"
     << "  %r = linalg.generic {indexing_maps = [#x, #o], iterator_types = "
        "[\"reduction\", \"parallel\", \"parallel\"]} ins(%x : "
     << x << ") outs(%acc : " << o << ") {\n"
     << "  ^bb0(%a: f32, %b: f32):\n"
     << "    %s = arith.addf %b, %a : f32\n"
     << "    linalg.yield %s : f32\n"
     << "  } -> " << o << "\n"
     << "  return %r : " << o << "\n"
     << "}\n";
  return text;
}

/// An elementwise loop nest over [rows * P, cols] activations split over
/// depth on [1, 1, P]: c = a + 0.5 * b, 3 * rows * cols * 4 bytes per
/// rank, its result a fresh buffer each call (as compiled programs
/// allocate their intermediates).
static std::string elementwiseKernel(int64_t ranks, int64_t rows,
                                     int64_t cols) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string t = "tensor<" + std::to_string(rows * ranks) + "x" +
                  std::to_string(cols) + "xf32>";
  os << "#m = affine_map<(d0, d1) -> (d0, d1)>\n"
     << "func.func @stream(%a: " << t
     << " {summa.role = \"activation\"}, %b: " << t
     << " {summa.role = \"activation\"}) -> " << t << " {\n"
     << "  %e = tensor.empty() : " << t << "\n"
     << "  %s = arith.constant 0.5 : f32\n"
     << "  %r = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types "
        "= [\"parallel\", \"parallel\"]} ins(%a, %b : "
     << t << ", " << t << ") outs(%e : " << t << ") {\n"
     << "  ^bb0(%x: f32, %y: f32, %o: f32):\n"
     << "    %m = arith.mulf %y, %s : f32\n"
     << "    %z = arith.addf %x, %m : f32\n"
     << "    linalg.yield %z : f32\n"
     << "  } -> " << t << "\n"
     << "  return %r : " << t << "\n"
     << "}\n";
  return text;
}

/// Bytes of a core's level-2 cache (1 MiB where the system does not say).
static int64_t cacheSize() {
#ifdef _SC_LEVEL2_CACHE_SIZE
  long size = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (size > 0)
    return size;
#endif
  return 1 << 20;
}

/// Milliseconds per call of `kernel` compiled by summa-compile for
/// [1, 1, `ranks`] and run on as many ranks.
static FailureOr<double> timeCompiled(const CalibrateOptions &options,
                                      int64_t ranks, StringRef kernel,
                                      std::string &error) {
  SmallString<128> source, program;
  llvm::sys::fs::createTemporaryFile("summa-kernel", "mlir", source);
  llvm::sys::fs::createTemporaryFile("summa-kernel", "", program);
  auto remove = [&] {
    llvm::sys::fs::remove(source);
    llvm::sys::fs::remove(program);
  };
  llvm::scope_exit<decltype(remove)> cleanup(remove);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(source, ec);
    os << kernel;
  }
  std::string output;
  SmallVector<std::string> compile{options.compiler, std::string(source),
                                   "--grid=1,1," + std::to_string(ranks), "-o",
                                   std::string(program)};
  if (failed(run(compile, output, error)))
    return failure();
  SmallVector<std::string> args = underMpi(options, ranks, program);
  args.push_back("--iters");
  args.push_back(options.quick ? "2" : "20");
  if (failed(run(args, output, error)))
    return failure();
  // "time: X ms/iter (...)"
  size_t at = output.find("time: ");
  double ms = 0;
  if (at == std::string::npos ||
      StringRef(output).substr(at + 6).split(' ').first.getAsDouble(ms)) {
    error = "a calibration kernel printed no time:\n" + output;
    return failure();
  }
  return std::max(ms, 1e-3); // the driver prints three decimals
}

/// The rates of compiled loop nests on `ranks` ranks at once: bytes per
/// second of an elementwise pass, iterations per second of a loop nest in
/// the caches. Nothing without summa-compile.
static LogicalResult measureCompiledLoops(const CalibrateOptions &options,
                                          int64_t ranks, Machine::Local &local,
                                          std::string &error) {
  if (options.compiler.empty())
    return success();
  int64_t streamRows = options.quick ? 64 : 4096, cols = 1024;
  FailureOr<double> ms = timeCompiled(
      options, ranks, elementwiseKernel(ranks, streamRows, cols), error);
  if (failed(ms))
    return failure();
  local.bytesPerSecond = 3.0 * streamRows * cols * 4 / (*ms * 1e-3);
  // The same in the caches: a quarter of the level-2 cache moved (else of
  // 1 MiB); loop nests up to the cache's size take this rate.
  int64_t cache = cacheSize();
  int64_t small = std::max<int64_t>(1, cache / 4 / (3 * cols * 4));
  ms = timeCompiled(options, ranks, elementwiseKernel(ranks, small, cols),
                    error);
  if (failed(ms))
    return failure();
  local.cacheBytesPerSecond = 3.0 * small * cols * 4 / (*ms * 1e-3);
  local.cacheBytes = cache;
  // A reduction whose operands stay in the caches (y: a quarter of the
  // cache).
  int64_t j = options.quick ? 16 : 256;
  int64_t inCache = std::max<int64_t>(1, cache / 4 / (j * 4));
  int64_t rows = options.quick ? 2 : 64;
  ms = timeCompiled(options, ranks, loopKernel(ranks, rows, inCache, j), error);
  if (failed(ms))
    return failure();
  local.iterationsPerSecond =
      static_cast<double>(rows * inCache * j) / (*ms * 1e-3);
  // One striding through 64 MiB per rank (1 MiB quick).
  int64_t k = (options.quick ? 1 << 20 : 64 << 20) / (j * 4);
  ms = timeCompiled(options, ranks, stridedKernel(ranks, k, j), error);
  if (failed(ms))
    return failure();
  local.stridedIterationsPerSecond = static_cast<double>(k * j) / (*ms * 1e-3);
  return success();
}

/// The GEMM entry of one run's samples.
static std::optional<Machine::Gemm> readGemm(const llvm::json::Array &samples,
                                             int64_t ranks) {
  Machine::Gemm gemm;
  gemm.ranks = ranks;
  gemm.dtype = "f32";
  SmallVector<std::pair<double, double>> points;
  // Products of fewer than 16 rows are bound by their bytes: their rate is
  // fitted apart.
  double skinnyBytes = 0, skinnySeconds = 0;
  for (const llvm::json::Value &v : samples) {
    const llvm::json::Object *s = v.getAsObject();
    if (!s || !s->getInteger("m") || !s->getInteger("n") ||
        !s->getInteger("k") || !s->getNumber("seconds"))
      return std::nullopt;
    Machine::Gemm::Sample sample{*s->getInteger("m"), *s->getInteger("n"),
                                 *s->getInteger("k"), *s->getNumber("seconds")};
    gemm.samples.push_back(sample);
    if (sample.m < 16) {
      skinnyBytes +=
          4.0 * static_cast<double>(sample.m * sample.k + sample.k * sample.n +
                                    sample.m * sample.n);
      skinnySeconds += sample.seconds;
      continue;
    }
    points.push_back({2.0 * static_cast<double>(sample.m * sample.n * sample.k),
                      sample.seconds});
  }
  if (points.empty())
    return std::nullopt;
  auto [overhead, secondsPerFlop] = fitLine(points);
  gemm.overheadSeconds = overhead;
  gemm.flopsPerSecond = 1 / secondsPerFlop;
  if (skinnySeconds > 0)
    gemm.bytesPerSecond = skinnyBytes / skinnySeconds;
  return gemm;
}

/// The entry of one collective's samples.
static std::optional<Machine::Collective>
readCollective(const llvm::json::Value &value, int64_t ranks) {
  const llvm::json::Object *c = value.getAsObject();
  const llvm::json::Array *samples = c ? c->getArray("samples") : nullptr;
  if (!samples || !c->getString("op") || !c->getInteger("group_size"))
    return std::nullopt;
  Machine::Collective entry;
  entry.op = c->getString("op")->str();
  entry.ranks = ranks;
  entry.groupSize = *c->getInteger("group_size");
  SmallVector<std::pair<double, double>> points;
  for (const llvm::json::Value &s : *samples) {
    const llvm::json::Object *sample = s.getAsObject();
    if (!sample || !sample->getInteger("bytes") ||
        !sample->getNumber("seconds"))
      return std::nullopt;
    int64_t bytes = *sample->getInteger("bytes");
    double seconds = *sample->getNumber("seconds");
    entry.samples.push_back({bytes, seconds});
    points.push_back({static_cast<double>(bytes), seconds});
  }
  if (points.empty())
    return std::nullopt;
  auto [alpha, secondsPerByte] = fitLine(points);
  entry.lockstepAlpha = alpha;
  entry.bytesPerSecond = 1 / secondsPerByte;
  // Inside a program the ranks of a group do not arrive in lockstep: the
  // latency is what a one-element call adds after local work, where that
  // is more.
  double inProgram =
      c->getNumber("in_program_seconds").value_or(0) -
      static_cast<double>(entry.samples.front().first) * secondsPerByte;
  entry.alpha = std::max(alpha, inProgram);
  return entry;
}

/// Adds the samples of one run (the JSON summa-calibrate wrote) to `m`.
static LogicalResult addRun(Machine &m, int64_t ranks, StringRef path,
                            std::string &error) {
  auto fail = [&](const Twine &why) {
    error = ("summa-calibrate's output '" + path + "' " + why).str();
    return failure();
  };
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail("cannot be read: " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return fail("is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *gemmSamples =
      root ? root->getArray("gemm") : nullptr;
  const llvm::json::Object *local = root ? root->getObject("local") : nullptr;
  const llvm::json::Array *collectives =
      root ? root->getArray("collectives") : nullptr;
  if (!gemmSamples || !local || !collectives)
    return fail("lacks 'gemm', 'local' or 'collectives'");
  m.cores = root->getInteger("cores").value_or(0);
  if (std::optional<StringRef> kernels = root->getString("kernels"))
    m.kernels = kernels->str();
  std::optional<Machine::Gemm> gemm = readGemm(*gemmSamples, ranks);
  if (!gemm)
    return fail("has malformed GEMM samples");
  m.gemm.push_back(*gemm);
  std::optional<double> bytes = local->getNumber("bytes");
  std::optional<double> all = local->getNumber("all_ranks_seconds");
  std::optional<double> one = local->getNumber("one_rank_seconds");
  if (!bytes || !all || !one || *all <= 0 || *one <= 0)
    return fail("has a malformed 'local' sample");
  m.local.push_back({ranks, *bytes / *all, *bytes / *one, *bytes / *one});
  m.local.back().streamBytesPerSecond = *bytes / *all;
  for (const llvm::json::Value &v : *collectives) {
    std::optional<Machine::Collective> entry = readCollective(v, ranks);
    if (!entry)
      return fail("has malformed collective samples");
    m.collectives.push_back(*entry);
  }
  return success();
}

static std::string hostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0)
    return "unknown";
  return name;
}

static std::string utcNow() {
  std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

FailureOr<Machine> plan::calibrateMachine(const CalibrateOptions &options,
                                          raw_ostream &log,
                                          std::string &error) {
  if (options.ranks.empty() ||
      llvm::any_of(options.ranks, [](int64_t r) { return r <= 0; })) {
    error = "the numbers of ranks to calibrate with must be positive";
    return failure();
  }
  Machine m;
  m.host = hostName();
  m.created = utcNow();
  for (int64_t ranks : options.ranks) {
    SmallString<128> out;
    llvm::sys::fs::createTemporaryFile("summa-calibrate", "json", out);
    log << "summa-plan: calibrating on " << ranks << " rank"
        << (ranks == 1 ? "" : "s") << "\n";
    log.flush();
    LogicalResult ran = runCalibration(options, ranks, out, error);
    if (succeeded(ran))
      ran = addRun(m, ranks, out, error);
    llvm::sys::fs::remove(out);
    if (failed(ran))
      return failure();
    if (failed(measureCompiledLoops(options, ranks, m.local.back(), error)))
      return failure();
  }
  // Every calibrated rank ran on this machine: one node.
  m.ranksPerNode = *llvm::max_element(options.ranks);
  std::error_code ec;
  llvm::raw_fd_ostream file(options.output, ec);
  if (ec) {
    error =
        "cannot write machine file '" + options.output + "': " + ec.message();
    return failure();
  }
  writeMachineJson(m, file);
  m.path = options.output;
  return m;
}
