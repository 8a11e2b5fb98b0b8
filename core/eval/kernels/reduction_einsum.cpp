// Einsum: products of operands summed over the labels the output leaves out, by ONNX's (numpy's) equation
// syntax: letters label dims, "..." stands for the dims no letter names (broadcast across operands, aligned from
// the right), a letter repeated within one operand takes a diagonal, and without "->" the output is "..." followed
// by the letters that occur once, in alphabetical order. Computed directly: for each output element, a loop over
// every combination of the summed labels. Floats accumulate in double and are rounded once, integers wrap.
#include <cctype>
#include <string>
#include <type_traits>
#include <vector>

#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

// The multiply-adds one Einsum may take before it is refused rather than left to run for hours.
constexpr double kMaxEinsumWork = 1e10;

// One operand's term: a label id per dim (ids >= 256 are the ellipsis' dims).
using Term = std::vector<int>;
constexpr int kEllipsisBase = 256;

// The letters of `text` (with at most one "..." standing for `ellipsisDims` dims, the last of `maxEllipsis`).
Term parseTerm(const std::string& text, int64_t rank, int& maxEllipsis, bool isOutput) {
  Term letters;
  int ellipsisAt = -1;
  for (size_t k = 0; k < text.size(); ++k) {
    const char ch = text[k];
    if (ch == ' ') continue;
    if (ch == '.') {
      if (text.compare(k, 3, "...") != 0 || ellipsisAt >= 0) badInput("Einsum equation has a stray '.'");
      ellipsisAt = static_cast<int>(letters.size());
      k += 2;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(ch))) badInput(std::string("Einsum equation has '") + ch + "'");
    letters.push_back(static_cast<unsigned char>(ch));
  }
  if (ellipsisAt < 0) {
    if (!isOutput && static_cast<int64_t>(letters.size()) != rank)
      badInput("Einsum term '" + text + "' names " + std::to_string(letters.size()) + " dims of a rank-" +
               std::to_string(rank) + " operand");
    return letters;
  }
  const int64_t e = isOutput ? maxEllipsis : rank - static_cast<int64_t>(letters.size());
  if (e < 0) badInput("Einsum term '" + text + "' names more dims than its operand has");
  if (!isOutput) maxEllipsis = std::max<int>(maxEllipsis, static_cast<int>(e));
  Term t(letters.begin(), letters.begin() + ellipsisAt);
  // Ellipsis dims are numbered from the right so that shorter ones align with the last dims of longer ones.
  for (int64_t d = 0; d < e; ++d) t.push_back(kEllipsisBase + static_cast<int>(e - 1 - d));
  t.insert(t.end(), letters.begin() + ellipsisAt, letters.end());
  return t;
}

template <typename T>
using ProductOf = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;

template <typename T>
ProductOf<T> widen(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return v;
  else if constexpr (std::is_signed_v<T>)
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  else
    return static_cast<uint64_t>(v);
}

std::vector<Value> einsum(const KernelContext& c) {
  const std::string eq = c.node.attrString("equation", "");
  if (eq.empty()) badInput("Einsum needs an equation");
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> termTexts;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    termTexts.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (termTexts.size() != c.inputCount())
    badInput("Einsum equation '" + eq + "' has " + std::to_string(termTexts.size()) + " terms for " +
             std::to_string(c.inputCount()) + " inputs");
  std::vector<const Tensor*> xs;
  for (size_t k = 0; k < c.inputCount(); ++k) xs.push_back(&c.input(k));
  const ir::DataType type = xs[0]->dtype();
  for (const Tensor* x : xs)
    if (x->dtype() != type) badInput("Einsum operands of different types: " + describe(*xs[0]) + ", " + describe(*x));

  int maxEllipsis = 0;
  std::vector<Term> terms;
  for (size_t k = 0; k < xs.size(); ++k)
    terms.push_back(parseTerm(termTexts[k], static_cast<int64_t>(xs[k]->rank()), maxEllipsis, false));
  // Each label's size: equal wherever it occurs, except that 1 broadcasts.
  std::vector<int64_t> size(kEllipsisBase + 64, -1);
  std::vector<int> occurrences(size.size(), 0);
  for (size_t k = 0; k < xs.size(); ++k)
    for (size_t d = 0; d < terms[k].size(); ++d) {
      const int l = terms[k][d];
      if (l >= static_cast<int>(size.size())) badInput("Einsum operand of too high a rank");
      const int64_t n = xs[k]->dim(d);
      ++occurrences[l];
      if (size[l] < 0 || size[l] == 1)
        size[l] = n;
      else if (n != size[l] && n != 1)
        badInput("Einsum label sizes differ (" + std::to_string(size[l]) + " and " + std::to_string(n) + ")");
    }
  Term out;
  if (arrow != std::string::npos) {
    out = parseTerm(eq.substr(arrow + 2), 0, maxEllipsis, true);
    for (size_t a = 0; a < out.size(); ++a) {
      if (size[out[a]] < 0) badInput("Einsum output label not among the inputs' in '" + eq + "'");
      for (size_t b = 0; b < a; ++b)
        if (out[a] == out[b]) badInput("Einsum output repeats a label in '" + eq + "'");
    }
  } else {
    for (int e = maxEllipsis; e-- > 0;) out.push_back(kEllipsisBase + e);
    for (int l = 0; l < kEllipsisBase; ++l)
      if (occurrences[l] == 1) out.push_back(l);
  }
  std::vector<int> summed;
  std::vector<bool> inOut(size.size(), false);
  for (int l : out) inOut[l] = true;
  for (int l = 0; l < static_cast<int>(size.size()); ++l)
    if (size[l] >= 0 && !inOut[l]) summed.push_back(l);

  std::vector<int64_t> outDims;
  for (int l : out) outDims.push_back(size[l]);
  double work = static_cast<double>(xs.size());
  for (int l = 0; l < static_cast<int>(size.size()); ++l)
    if (size[l] >= 0) work *= static_cast<double>(size[l]);
  if (work > kMaxEinsumWork)
    unsupported("Einsum '" + eq + "' would take " + std::to_string(static_cast<int64_t>(work)) +
                " multiply-adds, more than the direct evaluation does");

  // Per operand, the stride each label moves it by (a diagonal's dims add up; broadcast dims move by 0).
  std::vector<std::vector<int64_t>> labelStride(xs.size(), std::vector<int64_t>(size.size(), 0));
  for (size_t k = 0; k < xs.size(); ++k) {
    int64_t stride = 1;
    for (size_t d = terms[k].size(); d-- > 0;) {
      if (xs[k]->dim(d) != 1) labelStride[k][terms[k][d]] += stride;
      stride *= xs[k]->dim(d);
    }
  }
  return {visitNumeric(type, [&]<typename T>() -> Tensor {
    if constexpr (std::is_same_v<T, bool>) {
      badInput("Einsum of bool");
    } else {
      using P = ProductOf<T>;
      Tensor y = Tensor::empty(type, outDims);
      T* q = y.mutableData<T>();
      const size_t nOps = xs.size();
      std::vector<const T*> base(nOps);
      for (size_t k = 0; k < nOps; ++k) base[k] = xs[k]->data<T>();
      std::vector<int64_t> outIdx(out.size(), 0), sumIdx(summed.size(), 0), at(nOps, 0);
      const bool emptySum = [&] {
        for (int l : summed)
          if (size[l] == 0) return true;
        return false;
      }();
      for (int64_t o = 0; o < y.size(); ++o) {
        // `at` holds each operand's offset for the output index; the summed labels move from there.
        for (size_t k = 0; k < nOps; ++k) {
          at[k] = 0;
          for (size_t a = 0; a < out.size(); ++a) at[k] += outIdx[a] * labelStride[k][out[a]];
        }
        P acc{0};
        if (!emptySum) {
          std::fill(sumIdx.begin(), sumIdx.end(), 0);
          std::vector<int64_t> cur = at;
          for (;;) {
            P prod = widen(base[0][cur[0]]);
            for (size_t k = 1; k < nOps; ++k) prod = static_cast<P>(prod * widen(base[k][cur[k]]));
            acc = static_cast<P>(acc + prod);
            size_t d = summed.size();
            while (d-- > 0) {
              const int l = summed[d];
              for (size_t k = 0; k < nOps; ++k) cur[k] += labelStride[k][l];
              if (++sumIdx[d] < size[l]) break;
              for (size_t k = 0; k < nOps; ++k) cur[k] -= labelStride[k][l] * size[l];
              sumIdx[d] = 0;
            }
            if (d == static_cast<size_t>(-1)) break;
          }
        }
        q[o] = static_cast<T>(acc);
        for (size_t a = out.size(); a-- > 0;) {
          if (++outIdx[a] < outDims[a]) break;
          outIdx[a] = 0;
        }
      }
      return y;
    }
  })};
}

}  // namespace

void registerEinsumKernels(KernelRegistry& r) { r.add("Einsum", 12, einsum); }

}  // namespace fb::eval
