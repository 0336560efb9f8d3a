//===- DriverCore.h - summaRtMain, shared by both backends ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The driver of compiled programs (summaRtMain): options, the analysis of the
// program's tensor table, the steps, --dump, the timing loop and --check.
// It is compiled into both runtime libraries; what differs between them is
// where the tiles live and how they are filled and copied, which a backend
// says in a `Backend` (runtime/cpu/Driver.cpp: host memory; runtime/gpu/
// Driver.cpp: device memory from the pool, filled on the device).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_LIB_DRIVERCORE_H
#define SUMMA_RUNTIME_LIB_DRIVERCORE_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace summa::rt::driver {

/// A validated SummaTensorDesc.
struct Tensor {
  const SummaTensorDesc *desc = nullptr;
  std::string name;
  /// The name in tensor files (--inputs, --outputs, --checkpoint): the
  /// function's (SummaTensorDesc::label), else `name`; an output that
  /// updates an input takes the input's.
  std::string fileName;
  size_t elementSize = 0;
  int rank = 0;
  int64_t localCount = 1;
  int64_t globalCount = 1;
  int64_t globalStrides[SUMMA_MAX_RANK] = {0, 0, 0, 0};
  /// Number of blocks along each dimension.
  int64_t blocks[SUMMA_MAX_RANK] = {1, 1, 1, 1};
  /// Number of groups each dimension is factored into (SummaTensorDesc).
  int64_t groups[SUMMA_MAX_RANK] = {1, 1, 1, 1};

  size_t localBytes() const { return localCount * elementSize; }
  size_t globalBytes() const { return globalCount * elementSize; }

  /// The block index along `dim` of the rank at `coords`: the mixed-radix
  /// number of its coordinates on the split axes, outer to inner.
  int64_t blockIndex(int dim, const int64_t coords[3]) const;

  /// The linear index of the block that the rank at `coords` holds.
  int64_t blockKey(const int64_t coords[3]) const;

  /// Calls fn(localLinearIndex, globalLinearIndex) for every element of the
  /// tile held at `coords` (or, with coords == nullptr, of the whole tensor)
  /// that is not padding (a dimension split unevenly: the last blocks run
  /// past the tensor's end).
  template <typename Fn>
  void forEachElement(const int64_t *coords, Fn fn) const {
    const int64_t *shape = coords ? desc->localShape : desc->globalShape;
    // Along each dimension, the tile holds `chunk` elements of each group,
    // starting at `origin` within a group of `span` elements.
    int64_t origin[SUMMA_MAX_RANK] = {0, 0, 0, 0};
    int64_t chunk[SUMMA_MAX_RANK], span[SUMMA_MAX_RANK];
    for (int dim = 0; dim < rank; ++dim) {
      chunk[dim] = coords ? shape[dim] / groups[dim] : shape[dim];
      span[dim] = coords ? chunk[dim] * blocks[dim] : shape[dim];
      if (coords)
        origin[dim] = blockIndex(dim, coords) * chunk[dim];
    }
    int64_t count = coords ? localCount : globalCount;
    int64_t index[SUMMA_MAX_RANK] = {0, 0, 0, 0};
    for (int64_t linear = 0; linear < count; ++linear) {
      int64_t global = 0;
      bool padding = false;
      for (int dim = 0; dim < rank; ++dim) {
        int64_t at = index[dim] / chunk[dim] * span[dim] + origin[dim] +
                     index[dim] % chunk[dim];
        // Uneven blocks: the last ones end in padding past the tensor.
        padding |= at >= desc->globalShape[dim];
        global += at * globalStrides[dim];
      }
      if (!padding)
        fn(linear, global);
      for (int dim = rank - 1; dim >= 0; --dim) {
        if (++index[dim] < shape[dim])
          break;
        index[dim] = 0;
      }
    }
  }

  /// Element `i` of host memory `data` (f32, f64, and f16/bf16 widened
  /// exactly).
  double load(const void *data, int64_t i) const;
  /// Stores `value` in the tensor's element type (integers rounded down,
  /// 16-bit floats rounded through float as the GPU backend's fill does).
  void store(void *data, int64_t i, double value) const;
};

/// What differs between the backends.
struct Backend {
  /// Follows "compiled for the grid [q,q,d]" in --help.
  const char *usageWhere;
  /// Lines added to the environment section of --help.
  const char *usageEnvironment;
  /// Validates the element type of a tensor (fatal, naming `role` and
  /// `name`, when this backend does not support it); returns its size.
  size_t (*elementSize)(const SummaTensorDesc &desc, const char *role,
                        const char *name);
  /// Called on every rank once the program's tensors are validated.
  void (*announce)();
  /// A zeroed buffer of `bytes` that compiled code reads and writes, never a
  /// null pointer; `what` names it in an error.
  void *(*allocate)(size_t bytes, const std::string &what);
  void (*release)(void *buffer);
  /// Fills input number `index` from `seed`: the tile held at `coords`, or
  /// the whole tensor when `coords` is null.
  void (*fill)(const Tensor &tensor, int index, uint64_t seed,
               const int64_t *coords, void *buffer);
  /// Buffer to buffer (an output over the input it updates).
  void (*copy)(void *dst, const void *src, size_t bytes);
  /// Buffer to host memory, complete on return; null when buffers are host
  /// memory already.
  void (*toHost)(void *host, const void *buffer, size_t bytes);
  /// Host memory to a buffer, complete on return; null when buffers are
  /// host memory already.
  void (*fromHost)(void *buffer, const void *host, size_t bytes);
  /// Waits for all queued work: before the timing barriers and around the
  /// reference run; null when calls complete on return.
  void (*settle)();
};

/// Fills input number `index` from `seed` in host memory: the tile held at
/// `coords`, or the whole tensor when `coords` is null (the CPU backend's
/// fill, and the host's for --check's reference on both backends).
void fillHost(const Tensor &tensor, int index, uint64_t seed,
              const int64_t *coords, void *buffer);

/// Host memory as a Backend: where --check's reference runs on both
/// backends.
const Backend &hostBackend();

/// The size of a tensor's element type, any type of the ABI (a Backend's
/// elementSize for a backend that holds them all); fatal, naming `role` and
/// `name`, when `desc.dtype` is not a SummaDType value.
size_t anyElementSize(const SummaTensorDesc &desc, const char *role,
                      const char *name);

/// summaRtMain of a backend.
int run(int argc, char **argv, const SummaProgramDesc *program,
        const Backend &backend);

/// A zeroed, 64-byte aligned host buffer of `bytes` (never a null pointer):
/// fatal, naming `what`, when it cannot be allocated. Free with std::free.
void *allocateHost(size_t bytes, const std::string &what);

/// A backend buffer (see Backend::allocate), released on destruction.
class Buffer {
public:
  Buffer(const Backend &backend, size_t bytes, const std::string &what)
      : backend(&backend), data_(backend.allocate(bytes, what)) {}
  Buffer(Buffer &&other) noexcept : backend(other.backend), data_(other.data_) {
    other.data_ = nullptr;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer &operator=(Buffer &&) = delete;
  ~Buffer() {
    if (data_)
      backend->release(data_);
  }

  void *data() const { return data_; }

private:
  const Backend *backend;
  void *data_;
};

/// Host memory, zeroed (allocateHost), freed on destruction.
class HostBuffer {
public:
  HostBuffer(size_t bytes, const std::string &what)
      : data_(allocateHost(bytes, what)) {}
  HostBuffer(HostBuffer &&other) noexcept : data_(other.data_) {
    other.data_ = nullptr;
  }
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
  HostBuffer &operator=(HostBuffer &&) = delete;
  ~HostBuffer() { std::free(data_); }

  void *data() const { return data_; }

private:
  void *data_;
};

/// A backend buffer as host memory: the buffer itself where buffers are host
/// memory, otherwise a host copy.
class HostView {
public:
  HostView(const Backend &backend, const void *buffer, size_t bytes,
           const std::string &what) {
    if (!backend.toHost) {
      data_ = buffer;
      return;
    }
    copy_ = allocateHost(bytes, what);
    backend.toHost(copy_, buffer, bytes);
    data_ = copy_;
  }
  HostView(const HostView &) = delete;
  HostView &operator=(const HostView &) = delete;
  ~HostView() { std::free(copy_); }

  const void *data() const { return data_; }

private:
  const void *data_ = nullptr;
  void *copy_ = nullptr;
};

/// Validates the description of input or output number `index` (`role`
/// "input" or "output") for `backend`; fatal, naming it, when it is invalid.
Tensor analyseTensor(const SummaTensorDesc &desc, const char *role, int index,
                     const Backend &backend);

/// Copies every output that updates an input (SummaTensorDesc::updates)
/// over that input, local tiles or whole tensors.
void feedBack(const Backend &backend, const std::vector<Tensor> &inputs,
              const std::vector<Tensor> &outputs,
              const std::vector<void *> &pointers, bool local);

/// Copies `bytes` of host memory into a backend buffer.
void upload(const Backend &backend, void *buffer, const void *host,
            size_t bytes);

/// Copies the tile of `tensor` held at `coords` (null: the whole tensor)
/// out of `whole`, the whole tensor in host memory, into `buffer`; returns
/// the bytes copied. With `mappedFile`, `whole` lies in a read-only mapping
/// of a file, whose pages are dropped from this process behind the copy:
/// a rank that reads its tile of a large table holds the pages of a few
/// megabytes of it at a time, not the table.
size_t uploadTile(const Backend &backend, const Tensor &tensor,
                  const int64_t *coords, const void *whole, void *buffer,
                  bool mappedFile = false);

/// This rank's tile of `tensor` (`buffer`) from every rank, in world-rank
/// order, on rank 0 (every rank must call it; other ranks get an empty
/// buffer). `what` names the tensor and `purpose` the option in an error.
HostBuffer gatherTiles(const Backend &backend, const Tensor &tensor,
                       const void *buffer, const std::string &what,
                       const char *purpose);

/// The whole of `tensor`, whose tile on this rank is `buffer`, assembled on
/// rank 0 (every rank must call it; other ranks get an empty buffer).
HostBuffer gatherWhole(const Backend &backend, const Tensor &tensor,
                       const void *buffer, const char *purpose);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_LIB_DRIVERCORE_H
