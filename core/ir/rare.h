#pragma once
// Value-semantic holders for IR fields that are almost always empty (doc strings, unknown wire fields, list
// attributes of rare kinds, ...). Each costs one null pointer while empty instead of a std::string's or a
// std::vector's 24-32 bytes: across 100k nodes and their values, tensors and attributes that is tens of MB.
// They copy deeply and compare by content, an emptied holder equals one never set, and they read as
// `const std::string&` / `const std::vector<T>&` so most code uses them as it would the std type. Mutable
// access to the std object itself is `edit()`.
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace fb::ir {

class RareString {
 public:
  RareString() = default;
  RareString(std::string s) { assign(std::move(s)); }
  RareString(std::string_view s) { assign(std::string(s)); }
  RareString(const char* s) { assign(std::string(s)); }
  RareString(const RareString& o) : p_(o.p_ ? std::make_unique<std::string>(*o.p_) : nullptr) {}
  RareString(RareString&&) noexcept = default;
  RareString& operator=(const RareString& o) {
    if (this != &o) assign(o.str());
    return *this;
  }
  RareString& operator=(RareString&&) noexcept = default;
  RareString& operator=(std::string s) { return assign(std::move(s)); }
  RareString& operator=(std::string_view s) { return assign(std::string(s)); }
  RareString& operator=(const char* s) { return assign(std::string(s)); }

  const std::string& str() const { return p_ ? *p_ : emptyString(); }
  operator const std::string&() const { return str(); }
  operator std::string_view() const { return str(); }
  // The string itself, allocated if it was not there.
  std::string& edit() {
    if (!p_) p_ = std::make_unique<std::string>();
    return *p_;
  }

  bool empty() const { return !p_ || p_->empty(); }
  size_t size() const { return p_ ? p_->size() : 0; }
  const char* data() const { return str().data(); }
  const char* c_str() const { return str().c_str(); }
  std::string::const_iterator begin() const { return str().begin(); }
  std::string::const_iterator end() const { return str().end(); }
  char operator[](size_t i) const { return str()[i]; }
  size_t find(std::string_view s, size_t pos = 0) const { return str().find(s, pos); }
  size_t rfind(std::string_view s, size_t pos = std::string::npos) const { return str().rfind(s, pos); }
  bool starts_with(std::string_view s) const { return str().starts_with(s); }
  std::string substr(size_t pos, size_t n = std::string::npos) const { return str().substr(pos, n); }
  void clear() { p_.reset(); }
  RareString& operator+=(std::string_view s) {
    if (!s.empty()) edit() += s;
    return *this;
  }

  friend bool operator==(const RareString& a, const RareString& b) { return a.str() == b.str(); }
  template <typename S>
  requires(std::is_convertible_v<const S&, std::string_view> && !std::is_same_v<S, RareString>) friend bool operator==(
      const RareString& a, const S& b) {
    return std::string_view(a.str()) == std::string_view(b);
  }
  template <typename S>
  requires(std::is_convertible_v<const S&, std::string_view> && !std::is_same_v<S, RareString>) friend std::string
  operator+(const RareString& a, const S& b) {
    return a.str() + std::string(std::string_view(b));
  }
  template <typename S>
  requires(std::is_convertible_v<const S&, std::string_view> && !std::is_same_v<S, RareString>) friend std::string
  operator+(const S& a, const RareString& b) {
    return std::string(std::string_view(a)) + b.str();
  }
  friend std::string operator+(const RareString& a, const RareString& b) { return a.str() + b.str(); }
  friend std::ostream& operator<<(std::ostream& os, const RareString& s) { return os << s.str(); }

 private:
  RareString& assign(std::string s) {
    if (s.empty())
      p_.reset();
    else if (p_)
      *p_ = std::move(s);
    else
      p_ = std::make_unique<std::string>(std::move(s));
    return *this;
  }
  static const std::string& emptyString() {
    static const std::string empty;
    return empty;
  }
  std::unique_ptr<std::string> p_;
};

template <typename T>
class RareVector {
 public:
  using value_type = T;
  using size_type = size_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  RareVector() = default;
  RareVector(std::vector<T> v) { assign(std::move(v)); }
  RareVector(std::initializer_list<T> l) : p_(l.size() ? std::make_unique<std::vector<T>>(l) : nullptr) {}
  RareVector(const RareVector& o) : p_(o.p_ ? std::make_unique<std::vector<T>>(*o.p_) : nullptr) {}
  RareVector(RareVector&&) noexcept = default;
  RareVector& operator=(const RareVector& o) {
    if (this != &o) assign(o.vec());
    return *this;
  }
  RareVector& operator=(RareVector&&) noexcept = default;
  RareVector& operator=(std::vector<T> v) { return assign(std::move(v)); }
  RareVector& operator=(std::initializer_list<T> l) {
    if (l.size() == 0)
      p_.reset();
    else if (p_)
      *p_ = l;
    else
      p_ = std::make_unique<std::vector<T>>(l);
    return *this;
  }

  const std::vector<T>& vec() const { return p_ ? *p_ : emptyVector(); }
  operator const std::vector<T>&() const { return vec(); }
  // The vector itself, allocated if it was not there.
  std::vector<T>& edit() {
    if (!p_) p_ = std::make_unique<std::vector<T>>();
    return *p_;
  }

  bool empty() const { return !p_ || p_->empty(); }
  size_t size() const { return p_ ? p_->size() : 0; }
  const_iterator begin() const { return vec().begin(); }
  const_iterator end() const { return vec().end(); }
  iterator begin() { return p_ ? p_->begin() : iterator(); }
  iterator end() { return p_ ? p_->end() : iterator(); }
  const T& operator[](size_t i) const { return (*p_)[i]; }
  T& operator[](size_t i) { return (*p_)[i]; }
  const T& at(size_t i) const { return vec().at(i); }
  T& at(size_t i) { return edit().at(i); }
  const T& front() const { return p_->front(); }
  T& front() { return p_->front(); }
  const T& back() const { return p_->back(); }
  T& back() { return p_->back(); }
  const T* data() const { return vec().data(); }

  void push_back(const T& v) { edit().push_back(v); }
  void push_back(T&& v) { edit().push_back(std::move(v)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    return edit().emplace_back(std::forward<Args>(args)...);
  }
  template <typename It>
  void assign(It first, It last) {
    assign(std::vector<T>(first, last));
  }
  void reserve(size_t n) {
    if (n) edit().reserve(n);
  }
  void resize(size_t n) {
    if (n || p_) edit().resize(n);
  }
  void clear() { p_.reset(); }

  friend bool operator==(const RareVector& a, const RareVector& b) { return a.vec() == b.vec(); }
  friend bool operator==(const RareVector& a, const std::vector<T>& b) { return a.vec() == b; }

 private:
  RareVector& assign(std::vector<T> v) {
    if (v.empty())
      p_.reset();
    else if (p_)
      *p_ = std::move(v);
    else
      p_ = std::make_unique<std::vector<T>>(std::move(v));
    return *this;
  }
  static const std::vector<T>& emptyVector() {
    static const std::vector<T> empty;
    return empty;
  }
  std::unique_ptr<std::vector<T>> p_;
};

// An optional whose value lives on the heap: one pointer while unset instead of sizeof(T) + 8.
template <typename T>
class RareOptional {
 public:
  RareOptional() = default;
  RareOptional(std::nullopt_t) {}
  RareOptional(T v) : p_(std::make_unique<T>(std::move(v))) {}
  RareOptional(const RareOptional& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  RareOptional(RareOptional&&) noexcept = default;
  RareOptional& operator=(const RareOptional& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  RareOptional& operator=(RareOptional&&) noexcept = default;
  RareOptional& operator=(std::nullopt_t) {
    p_.reset();
    return *this;
  }
  RareOptional& operator=(T v) {
    p_ = std::make_unique<T>(std::move(v));
    return *this;
  }

  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  const T& operator*() const { return *p_; }
  T& operator*() { return *p_; }
  const T* operator->() const { return p_.get(); }
  T* operator->() { return p_.get(); }
  void reset() { p_.reset(); }

  friend bool operator==(const RareOptional& a, const RareOptional& b) {
    return a.p_ && b.p_ ? *a.p_ == *b.p_ : !a.p_ && !b.p_;
  }

 private:
  std::unique_ptr<T> p_;
};

}  // namespace fb::ir
