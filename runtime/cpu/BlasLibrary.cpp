//===- BlasLibrary.cpp - the BLAS the CPU runtime loads ------------------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "BlasLibrary.h"

#include "Error.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define SUMMA_X86 1
#endif

using namespace summa::rt;

namespace {
/// The CPU's vector extensions that decide a GEMM kernel set, where the
/// operating system saves their registers too.
struct CpuFeatures {
  std::string vendor;
  std::string model;
  bool avx = false, fma = false, avx2 = false, avx512 = false,
       avx512bf16 = false;
};

CpuFeatures detectCpu() {
  CpuFeatures cpu;
#ifdef SUMMA_X86
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d))
    return cpu;
  unsigned maxLeaf = a;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  cpu.vendor = vendor;
  __get_cpuid(1, &a, &b, &c, &d);
  bool osxsave = c & (1u << 27);
  bool avx = c & (1u << 28);
  cpu.fma = c & (1u << 12);
  uint64_t xcr0 = 0;
  if (osxsave) {
    uint32_t lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<uint64_t>(hi) << 32) | lo;
  }
  bool osAvx = (xcr0 & 0x6) == 0x6;
  bool osAvx512 = osAvx && (xcr0 & 0xe0) == 0xe0;
  cpu.avx = avx && osAvx;
  cpu.fma = cpu.fma && cpu.avx;
  if (maxLeaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    cpu.avx2 = cpu.avx && (b & (1u << 5));
    bool f = b & (1u << 16), dq = b & (1u << 17), bw = b & (1u << 30),
         vl = b & (1u << 31);
    cpu.avx512 = osAvx512 && f && dq && bw && vl;
    __cpuid_count(7, 1, a, b, c, d);
    cpu.avx512bf16 = cpu.avx512 && (a & (1u << 5));
  }
  unsigned maxExtended = __get_cpuid_max(0x80000000, nullptr);
  if (maxExtended >= 0x80000004) {
    char brand[49] = {};
    for (unsigned leaf = 0; leaf < 3; ++leaf) {
      __get_cpuid(0x80000002 + leaf, &a, &b, &c, &d);
      std::memcpy(brand + 16 * leaf, &a, 4);
      std::memcpy(brand + 16 * leaf + 4, &b, 4);
      std::memcpy(brand + 16 * leaf + 8, &c, 4);
      std::memcpy(brand + 16 * leaf + 12, &d, 4);
    }
    std::string model = brand;
    model.erase(0, model.find_first_not_of(' '));
    model.erase(model.find_last_not_of(' ') + 1);
    cpu.model = model;
  }
#endif
  return cpu;
}

/// The widest vectors `cpu` has, as OpenBLAS's kernel sets use them: 4
/// AVX-512, 3 AVX2 with FMA, 2 AVX, 1 SSE.
int cpuWidth(const CpuFeatures &cpu) {
  return cpu.avx512 ? 4 : cpu.avx2 && cpu.fma ? 3 : cpu.avx ? 2 : 1;
}

/// The vectors OpenBLAS's kernel set `core` uses (as cpuWidth), 0 when
/// summa does not know it.
int coreWidth(std::string core) {
  std::transform(core.begin(), core.end(), core.begin(),
                 [](unsigned char ch) { return std::tolower(ch); });
  static const char *const wide[] = {"skylakex", "cooperlake",
                                     "sapphirerapids"};
  static const char *const avx2[] = {"haswell", "zen", "skylake"};
  static const char *const avx[] = {"sandybridge", "bulldozer", "piledriver",
                                    "steamroller", "excavator"};
  static const char *const sse[] = {
      "prescott", "core2",      "penryn",    "dunnington",   "nehalem",
      "atom",     "opteron",    "barcelona", "bobcat",       "nano",
      "katmai",   "coppermine", "northwood", "opteron(sse3)"};
  auto in = [&](auto &names) {
    return std::any_of(std::begin(names), std::end(names),
                       [&](const char *n) { return core == n; });
  };
  return in(wide) ? 4 : in(avx2) ? 3 : in(avx) ? 2 : in(sse) ? 1 : 0;
}

/// The kernel set OpenBLAS picks itself on the CPUs it knows with `cpu`'s
/// vectors; empty where summa leaves the choice to OpenBLAS.
std::string coreFromFlags(const CpuFeatures &cpu) {
  if (cpu.avx512bf16)
    return "Cooperlake";
  if (cpu.avx512)
    return "SkylakeX";
  if (cpu.avx2 && cpu.fma)
    return cpu.vendor == "AuthenticAMD" ? "Zen" : "Haswell";
  return "";
}

std::string flagsOf(const CpuFeatures &cpu) {
  std::string flags;
  auto add = [&](bool has, const char *name) {
    if (has)
      flags += (flags.empty() ? "" : " ") + std::string(name);
  };
  add(cpu.avx, "avx");
  add(cpu.fma, "fma");
  add(cpu.avx2, "avx2");
  add(cpu.avx512, "avx512");
  add(cpu.avx512bf16, "avx512_bf16");
  return flags.empty() ? "no avx" : flags;
}

BlasLibrary load() {
  BlasLibrary lib;
  CpuFeatures cpu = detectCpu();
  lib.cpuModel = cpu.model.empty() ? "unknown CPU" : cpu.model;
  lib.cpuFlags = flagsOf(cpu);
  // What OpenBLAS reads when it loads: one thread per rank, and the kernels
  // of the CPU's vectors.
  bool threadsSet = std::getenv("OPENBLAS_NUM_THREADS") != nullptr;
  setenv("OPENBLAS_NUM_THREADS", "1", /*overwrite=*/0);
  setenv("BLIS_NUM_THREADS", "1", /*overwrite=*/0);
  std::string wanted;
  if (const char *set = std::getenv("OPENBLAS_CORETYPE"); set && *set) {
    lib.chosenBy = "OPENBLAS_CORETYPE";
  } else if (wanted = coreFromFlags(cpu); !wanted.empty()) {
    setenv("OPENBLAS_CORETYPE", wanted.c_str(), /*overwrite=*/1);
    lib.chosenBy = "the CPU's flags";
  } else {
    lib.chosenBy = "OpenBLAS's own detection";
  }

  std::vector<std::string> candidates;
  if (const char *path = std::getenv("SUMMA_BLAS_LIBRARY"); path && *path)
    candidates.push_back(path);
  // The system's OpenBLAS (Debian: its alternatives), else the one the
  // runtime was built with.
  candidates.push_back("libopenblas.so.0");
#ifdef SUMMA_OPENBLAS_PATH
  candidates.push_back(SUMMA_OPENBLAS_PATH);
#endif
  void *handle = nullptr;
  std::string tried;
  for (const std::string &path : candidates) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      lib.path = path;
      break;
    }
    const char *why = dlerror();
    tried += "\n  " + path + ": " + (why ? why : "not found");
  }
  if (!handle)
    fatal("summa runtime: cannot load a BLAS library (the CBLAS interface, "
          "OpenBLAS by default; SUMMA_BLAS_LIBRARY names another):%s",
          tried.c_str());
  auto symbol = [&](const char *name, bool required) {
    void *p = dlsym(handle, name);
    if (!p && required)
      fatal("summa runtime: the BLAS library '%s' has no %s", lib.path.c_str(),
            name);
    return p;
  };
  lib.sgemm = reinterpret_cast<decltype(lib.sgemm)>(symbol("cblas_sgemm", 1));
  lib.dgemm = reinterpret_cast<decltype(lib.dgemm)>(symbol("cblas_dgemm", 1));
  lib.sgemv = reinterpret_cast<decltype(lib.sgemv)>(symbol("cblas_sgemv", 1));
  lib.dgemv = reinterpret_cast<decltype(lib.dgemv)>(symbol("cblas_dgemv", 1));
  // An OpenBLAS loaded before (by the host process) read its variables then.
  if (!threadsSet)
    if (auto set = reinterpret_cast<void (*)(int)>(
            symbol("openblas_set_num_threads", false)))
      set(1);
  if (auto config =
          reinterpret_cast<char *(*)()>(symbol("openblas_get_config", false)))
    lib.config = config();
  lib.core = "unknown";
  if (auto core = reinterpret_cast<char *(*)()>(
          symbol("openblas_get_corename", false))) {
    lib.core = core();
  } else if (auto query = reinterpret_cast<int (*)()>(
                 symbol("bli_arch_query_id", false))) {
    // BLIS: its own detection, by CPU family (OPENBLAS_CORETYPE is not
    // its variable).
    auto name = reinterpret_cast<const char *(*)(int)>(
        symbol("bli_arch_string", false));
    auto version = reinterpret_cast<const char *(*)()>(
        symbol("bli_info_get_version_str", false));
    lib.core = name ? name(query()) : "unknown";
    lib.config = std::string("BLIS ") + (version ? version() : "");
    lib.chosenBy = "BLIS's own detection";
    wanted.clear();
  }
  if (!wanted.empty() && coreWidth(lib.core) != coreWidth(wanted))
    lib.chosenBy = "OpenBLAS, which did not take OPENBLAS_CORETYPE=" + wanted +
                   " (loaded before summa set it, or built for one core)";
  lib.narrower = coreWidth(lib.core) > 0 && coreWidth(lib.core) < cpuWidth(cpu);
  return lib;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\')
      out += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20)
      out += ch;
  }
  return out + "\"";
}
} // namespace

const BlasLibrary &summa::rt::blasLibrary() {
  static const BlasLibrary lib = load();
  return lib;
}

std::string summa::rt::describeBlas(const BlasLibrary &blas) {
  std::string library = blas.config.empty() ? blas.path : blas.config;
  return library + ", kernels '" + blas.core + "' (" + blas.chosenBy + ") on " +
         blas.cpuModel + " (" + blas.cpuFlags + ")";
}

std::string summa::rt::blasJson(const BlasLibrary &blas) {
  return "{\"library\":" + jsonString(blas.path) +
         ",\"config\":" + jsonString(blas.config) +
         ",\"core\":" + jsonString(blas.core) +
         ",\"chosen_by\":" + jsonString(blas.chosenBy) +
         ",\"cpu\":" + jsonString(blas.cpuModel) +
         ",\"cpu_flags\":" + jsonString(blas.cpuFlags) +
         ",\"narrower_than_cpu\":" + (blas.narrower ? "true" : "false") + "}";
}
