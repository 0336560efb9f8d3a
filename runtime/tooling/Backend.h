//===- Backend.h - what differs between the backends ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The harness (summaRtMain, the model object) is compiled into both runtime
// libraries; what differs between them is where the tiles live and how they
// are filled and copied, which a backend says in a `Backend`
// (runtime/cpu/Driver.cpp: host memory; runtime/gpu/Driver.cpp: device
// memory from the pool, filled on the device). This file holds that
// interface, host memory as a Backend (where --check's reference runs), the
// buffers the harness keeps, and the copies between them and host memory.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_BACKEND_H
#define SUMMA_RUNTIME_TOOLING_BACKEND_H

#include "Tensor.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace summa::rt::driver {

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
SUMMA_RT_EXPORT const Backend &hostBackend();

/// Waits for the backend's queued work (Backend::settle), if it queues any.
inline void settle(const Backend &backend) {
  if (backend.settle)
    backend.settle();
}

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
  /// Releases the buffer now; data() is null after.
  void reset() {
    if (data_)
      backend->release(data_);
    data_ = nullptr;
  }

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

/// Where a run's tensors live: `backend`'s buffers, indexed like the
/// program's tensors (inputs, then outputs), each holding the tile at
/// `coords`, or the whole tensor when `coords` is null. The model's tiles
/// on this rank, or the whole tensors of the --check reference in host
/// memory.
struct Placement {
  const Backend &backend;
  const std::vector<void *> &buffers;
  const int64_t *coords;
};

/// Copies `bytes` of host memory into a backend buffer.
void upload(const Backend &backend, void *buffer, const void *host,
            size_t bytes);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_BACKEND_H
