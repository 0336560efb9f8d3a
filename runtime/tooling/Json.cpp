//===- Json.cpp - the JSON of tensor-file headers and indexes ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace summa::rt::driver;

namespace {

class JsonParser {
public:
  JsonParser(const char *begin, const char *end) : p(begin), end(end) {}

  bool parse(Json &value, std::string &error) {
    if (!parseValue(value, 0)) {
      error = why;
      return false;
    }
    skipSpace();
    if (p != end) {
      error = "unexpected text after the JSON value";
      return false;
    }
    return true;
  }

private:
  bool fail(const std::string &message) {
    if (why.empty())
      why = message;
    return false;
  }
  void skipSpace() {
    while (p != end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      ++p;
  }
  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (static_cast<size_t>(end - p) < n || std::memcmp(p, word, n) != 0)
      return false;
    p += n;
    return true;
  }
  /// The four hex digits of a \u escape, appended to `out` as UTF-8 (names
  /// are ASCII in practice; surrogate pairs are kept as two 3-byte
  /// sequences).
  bool parseCodeUnit(std::string &out) {
    if (end - p < 4)
      return fail("a short \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      char h = *p++;
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= h - '0';
      else if (h >= 'a' && h <= 'f')
        code |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        code |= h - 'A' + 10;
      else
        return fail("a malformed \\u escape");
    }
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
    return true;
  }
  bool parseString(std::string &out) {
    if (p == end || *p != '"')
      return fail("expected a string");
    ++p;
    while (p != end && *p != '"') {
      char c = *p++;
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("a control character inside a string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (p == end)
        return fail("an unterminated escape");
      char e = *p++;
      // The one-character escapes and what they stand for.
      static const char kEscaped[] = "\"\\/bfnrt";
      static const char kMeaning[] = "\"\\/\b\f\n\r\t";
      if (const void *at = std::memchr(kEscaped, e, sizeof(kEscaped) - 1))
        out.push_back(kMeaning[static_cast<const char *>(at) - kEscaped]);
      else if (e != 'u')
        return fail("an unknown escape in a string");
      else if (!parseCodeUnit(out))
        return false;
    }
    if (p == end)
      return fail("an unterminated string");
    ++p;
    return true;
  }
  bool parseNumber(Json &value) {
    const char *start = p;
    if (p != end && *p == '-')
      ++p;
    bool fraction = false;
    while (p != end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
                        *p == 'E' || *p == '+' || *p == '-')) {
      fraction |= *p == '.' || *p == 'e' || *p == 'E';
      ++p;
    }
    std::string text(start, p);
    if (text.empty() || text == "-")
      return fail("expected a value");
    value.kind = Json::Number;
    char *stop = nullptr;
    errno = 0;
    value.number = std::strtod(text.c_str(), &stop);
    if (*stop != '\0')
      return fail("a malformed number '" + text + "'");
    if (!fraction) {
      errno = 0;
      long long v = std::strtoll(text.c_str(), &stop, 10);
      if (errno == 0 && *stop == '\0') {
        value.integral = true;
        value.integer = v;
      }
    }
    return true;
  }
  /// An object or array from its opening bracket on: items (`parseItem()`)
  /// separated by ',' up to `close`; `what` names it in a message.
  template <typename ParseItem>
  bool parseList(char close, const char *what, ParseItem parseItem) {
    ++p;
    skipSpace();
    if (p != end && *p == close) {
      ++p;
      return true;
    }
    while (true) {
      if (!parseItem())
        return false;
      skipSpace();
      if (p != end && *p == ',') {
        ++p;
        continue;
      }
      if (p != end && *p == close) {
        ++p;
        return true;
      }
      return fail(std::string("expected ',' or '") + close + "' in " + what);
    }
  }
  bool parseValue(Json &value, int depth) {
    if (depth > 16)
      return fail("the JSON nests too deeply");
    skipSpace();
    if (p == end)
      return fail("the JSON ends early");
    char c = *p;
    if (c == '{') {
      value.kind = Json::Object;
      return parseList('}', "an object", [&] {
        skipSpace();
        std::string key;
        if (!parseString(key))
          return false;
        skipSpace();
        if (p == end || *p != ':')
          return fail("expected ':' after a key");
        ++p;
        Json member;
        if (!parseValue(member, depth + 1))
          return false;
        value.members.emplace_back(std::move(key), std::move(member));
        return true;
      });
    }
    if (c == '[') {
      value.kind = Json::Array;
      return parseList(']', "an array", [&] {
        Json item;
        if (!parseValue(item, depth + 1))
          return false;
        value.items.push_back(std::move(item));
        return true;
      });
    }
    if (c == '"') {
      value.kind = Json::String;
      return parseString(value.string);
    }
    if (literal("true")) {
      value.kind = Json::Bool;
      value.boolean = true;
      return true;
    }
    if (literal("false")) {
      value.kind = Json::Bool;
      return true;
    }
    if (literal("null"))
      return true;
    return parseNumber(value);
  }

  const char *p;
  const char *end;
  std::string why;
};

} // namespace

bool summa::rt::driver::parseJson(const char *begin, const char *end,
                                  Json &value, std::string &error) {
  return JsonParser(begin, end).parse(value, error);
}

const Json *summa::rt::driver::member(const Json &object, const char *key) {
  for (const auto &[name, value] : object.members)
    if (name == key)
      return &value;
  return nullptr;
}

std::string summa::rt::driver::jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out.push_back(c);
    }
  }
  return out + "\"";
}
