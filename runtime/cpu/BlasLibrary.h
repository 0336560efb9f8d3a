//===- BlasLibrary.h - the BLAS the CPU runtime loads -----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The CPU runtime loads its BLAS (OpenBLAS, through the CBLAS interface)
// with dlopen when it starts, not as a link dependency, so that what OpenBLAS
// reads from the environment when it loads is set first:
//
//  * OPENBLAS_NUM_THREADS=1 (unless set): one thread per rank, as ranks
//    share the cores.
//  * OPENBLAS_CORETYPE (unless set), on x86-64, from the CPU's own feature
//    flags: Cooperlake with AVX512-BF16, SkylakeX with AVX-512 (F, VL, BW,
//    DQ), Haswell (Zen on AMD) with AVX2 and FMA. These are the kernel sets
//    OpenBLAS picks itself on the CPUs it knows; on a CPU whose model it
//    does not know (a newer Xeon), its own detection falls back to generic
//    SSE3 kernels ("Prescott"), 3-4x slower (bench/RESULTS.md).
//
// Which kernels run is reported (`-v`, the profile, summa-calibrate's
// machine file), and a kernel set narrower than the CPU's vector units (a
// core set by hand, or an OpenBLAS loaded before summa's) is a warning.
// SUMMA_BLAS_LIBRARY names another library with the CBLAS interface.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_CPU_BLASLIBRARY_H
#define SUMMA_RUNTIME_CPU_BLASLIBRARY_H

#include <cblas.h>

#include <string>

namespace summa::rt {

struct BlasLibrary {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
  decltype(&cblas_sgemv) sgemv = nullptr;
  decltype(&cblas_dgemv) dgemv = nullptr;
  /// The file loaded.
  std::string path;
  /// OpenBLAS's configuration (openblas_get_config), or empty.
  std::string config;
  /// The kernel set it runs (openblas_get_corename), or "unknown".
  std::string core;
  /// How the kernel set was chosen: "OPENBLAS_CORETYPE", "the CPU's
  /// flags" or "OpenBLAS's own detection".
  std::string chosenBy;
  /// The CPU: its model name and the vector extensions summa looks at.
  std::string cpuModel;
  std::string cpuFlags;
  /// Whether the kernels use narrower vectors than the CPU has.
  bool narrower = false;
};

/// Loads the BLAS (once; fatal, naming the file, when it cannot) and
/// returns it. summaRtInit calls it before MPI starts.
const BlasLibrary &blasLibrary();

/// The library, its kernels and the CPU as one line ("OpenBLAS 0.3.21
/// ... kernels 'Zen' (from the CPU's flags) on AMD EPYC (avx2 fma)").
std::string describeBlas(const BlasLibrary &blas);

/// The same as a JSON object.
std::string blasJson(const BlasLibrary &blas);

} // namespace summa::rt

#endif // SUMMA_RUNTIME_CPU_BLASLIBRARY_H
