//===- Json.h - the JSON of tensor-file headers and indexes -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A small JSON reader and string quoting for the files the driver reads and
// writes: safetensors headers, sharded checkpoints' index.json.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_JSON_H
#define SUMMA_RUNTIME_TOOLING_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace summa::rt::driver {

/// A parsed JSON value; objects keep their members in file order.
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  bool integral = false;
  int64_t integer = 0;
  std::string string;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;
};

/// Parses the JSON value in [begin, end) (nothing but white space after
/// it) into `value`; on failure returns false and sets `error`.
bool parseJson(const char *begin, const char *end, Json &value,
               std::string &error);

/// The member `key` of `object`, or null.
const Json *member(const Json &object, const char *key);

/// `s` as a JSON string literal, quoted and escaped.
std::string jsonString(const std::string &s);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_JSON_H
