//===- ReplayMain.cpp - run the fuzz target on files, without libFuzzer ---===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `summa-fuzz-replay [-q] PATH...` runs LLVMFuzzerTestOneInput once on every
// file given, and on every regular file below every directory given (sorted,
// so runs are reproducible). It is the fuzz target linked with this main
// instead of libFuzzer's, so the corpus replays with any compiler (CI), and a
// crash shows up as a crash of this process after the line naming the file.
// Exits 0 when every input ran, 2 on a usage or I/O error.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char **argv) {
  bool quiet = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-q") {
      quiet = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [-q] FILE|DIR...\n", argv[0]);
      return 0;
    }
    std::error_code error;
    if (fs::is_directory(arg, error)) {
      std::vector<std::string> found;
      for (fs::recursive_directory_iterator it(arg, error), end;
           !error && it != end; it.increment(error))
        if (it->is_regular_file())
          found.push_back(it->path().string());
      if (error) {
        std::fprintf(stderr, "summa-fuzz-replay: cannot list '%s': %s\n",
                     arg.c_str(), error.message().c_str());
        return 2;
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(arg, error)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr,
                   "summa-fuzz-replay: no such file or directory '%s'\n",
                   arg.c_str());
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "summa-fuzz-replay: no inputs\n");
    return 2;
  }

  LLVMFuzzerInitialize(&argc, &argv);
  auto start = std::chrono::steady_clock::now();
  for (const std::string &file : files) {
    std::ifstream stream(file, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(stream)),
                     std::istreambuf_iterator<char>());
    if (!stream.good() && !stream.eof()) {
      std::fprintf(stderr, "summa-fuzz-replay: cannot read '%s'\n",
                   file.c_str());
      return 2;
    }
    if (!quiet) {
      // Before running it, so that a crash is attributed to its input.
      std::fprintf(stderr, "summa-fuzz-replay: %s\n", file.c_str());
      std::fflush(stderr);
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()),
                           data.size());
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("summa-fuzz-replay: %zu inputs ran in %.1f s, no crash\n",
              files.size(), seconds);
  return 0;
}
