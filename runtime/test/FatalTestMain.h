//===- FatalTestMain.h - main of the fatal-error tests ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What the CPU and GPU backends' fatal tests share: `TOOL CASE` makes the
// calls of one case, which must end the process (every rank) through the
// runtime's fatal error. If they return, the test says so on a line that
// CTest rejects ("did not abort") and exits 0, which CTest rejects too.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TEST_FATALTESTMAIN_H
#define SUMMA_RUNTIME_TEST_FATALTESTMAIN_H

#include <cstdio>
#include <string>

namespace summa::test {

/// The main of a fatal test: `provoke(name)` makes the calls of case `name`
/// and returns false when there is no such case. Returns the process's exit
/// status (2 on a usage error or an unknown case).
inline int runFatalCase(const char *tool, int argc, char **argv,
                        bool (*provoke)(const std::string &name)) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <case>\n", tool);
    return 2;
  }
  if (!provoke(argv[1])) {
    std::fprintf(stderr, "%s: unknown case '%s'\n", tool, argv[1]);
    return 2;
  }
  std::fprintf(stderr, "%s: case '%s' did not abort\n", tool, argv[1]);
  return 0;
}

} // namespace summa::test

#endif // SUMMA_RUNTIME_TEST_FATALTESTMAIN_H
