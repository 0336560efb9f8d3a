//===- RequestTable.h - handles of non-blocking collectives -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The request handles of summaRtBroadcastStart / summaRtReduceStart /
// summaRtWait (SummaRuntime.h), shared by both backends: each backend stores
// its own in-flight state (MPI requests, a CUDA event) under an int64_t id.
// Ids count up from 1 and are never reused, so that a stale or doubly waited
// handle is always recognised; 0 is never issued (it means "nothing in
// flight"). Header-only and free of MPI and CUDA, so that it is unit-tested on
// any host (runtime/gpu/test/RequestTableTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_REQUESTTABLE_H
#define SUMMA_RUNTIME_COMMON_REQUESTTABLE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace summa::rt {

template <typename T>
class RequestTable {
public:
  /// Stores `value` under a new id (1, 2, 3, ...) and returns the id.
  int64_t add(T value) {
    int64_t id = nextId++;
    entries.emplace(id, std::move(value));
    return id;
  }

  /// Removes request `id` and returns its value, or nullopt when `id` is not
  /// in flight (never issued, already taken, or not positive).
  std::optional<T> take(int64_t id) {
    auto it = entries.find(id);
    if (it == entries.end())
      return std::nullopt;
    std::optional<T> value(std::move(it->second));
    entries.erase(it);
    return value;
  }

  /// Whether `id` is in flight.
  bool contains(int64_t id) const { return entries.count(id) != 0; }

  /// The number of requests in flight.
  size_t size() const { return entries.size(); }

  /// The id the next add() will return.
  int64_t peekNextId() const { return nextId; }

private:
  std::map<int64_t, T> entries;
  int64_t nextId = 1;
};

/// "summaRtWait: request N is not in flight".
inline std::string requestNotInFlightMessage(int64_t id) {
  return "summaRtWait: request " + std::to_string(id) + " is not in flight";
}

/// "summaRtFinalize: N collectives were started and never waited for" (or
/// "1 collective was ...").
inline std::string requestsNeverWaitedMessage(size_t inFlight) {
  return "summaRtFinalize: " + std::to_string(inFlight) +
         (inFlight == 1 ? " collective was" : " collectives were") +
         " started and never waited for";
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_REQUESTTABLE_H
