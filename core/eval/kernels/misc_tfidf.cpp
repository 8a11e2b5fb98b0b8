// TfIdfVectorizer: counts, per row of the input, the n-grams (n from min_gram_length to max_gram_length) found in a
// pool, where an n-gram's items may lie up to max_skip_count positions apart (the same distance between each pair);
// the count of pool n-gram i goes to output column ngram_indexes[i], weighted by mode (TF: the count, IDF: the
// weight when present, TFIDF: count * weight). Unigrams are counted once per position, whatever the skip.
#include <algorithm>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "eval/kernels/misc_family.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

// An n-gram's items as strings or integers, one key type for both pools.
using Item = std::variant<int64_t, std::string>;
using Gram = std::vector<Item>;

std::vector<Value> tfIdf(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const bool strings = x.isString();
  if (!strings && x.dtype() != ir::DataType::Int64 && x.dtype() != ir::DataType::Int32)
    badInput("TfIdfVectorizer input must be strings, int32 or int64, got " + describe(x));
  if (x.rank() != 1 && x.rank() != 2) badInput("TfIdfVectorizer input must be 1-D or 2-D, got " + describe(x));
  const int64_t minGram = c.node.attrInt("min_gram_length", 1), maxGram = c.node.attrInt("max_gram_length", 1);
  const int64_t maxSkip = c.node.attrInt("max_skip_count", 0);
  const std::string mode = c.node.attrString("mode", "TF");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") badInput("TfIdfVectorizer mode '" + mode + "'");
  if (minGram < 1 || maxGram < minGram || maxSkip < 0)
    badInput("TfIdfVectorizer gram lengths " + std::to_string(minGram) + ".." + std::to_string(maxGram) + " and skip " +
             std::to_string(maxSkip));
  const std::vector<int64_t> counts = c.node.attrInts("ngram_counts");
  const std::vector<int64_t> indexes = c.node.attrInts("ngram_indexes");
  std::vector<float> weights;
  if (const ir::Attribute* a = c.node.attr("weights")) weights.assign(a->floats.begin(), a->floats.end());
  std::vector<Item> pool;
  if (const ir::Attribute* a = c.node.attr("pool_strings"))
    for (const std::string& s : a->strings) pool.emplace_back(s);
  for (int64_t v : c.node.attrInts("pool_int64s")) pool.emplace_back(v);

  // The pool cut into n-grams: ngram_counts[k] is where the (k+1)-grams start.
  std::map<Gram, int64_t> ordinal;
  int64_t next = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    const int64_t n = static_cast<int64_t>(k) + 1;
    const int64_t from = counts[k], to = k + 1 < counts.size() ? counts[k + 1] : static_cast<int64_t>(pool.size());
    if (from < 0 || to < from || to > static_cast<int64_t>(pool.size()) || (to - from) % n != 0)
      badInput("TfIdfVectorizer ngram_counts do not cut the pool into whole n-grams");
    for (int64_t at = from; at < to; at += n) ordinal[Gram(pool.begin() + at, pool.begin() + at + n)] = next++;
  }
  if (static_cast<int64_t>(indexes.size()) != next)
    badInput("TfIdfVectorizer has " + std::to_string(indexes.size()) + " ngram_indexes for " + std::to_string(next) +
             " n-grams");
  if (!weights.empty() && static_cast<int64_t>(weights.size()) != next)
    badInput("TfIdfVectorizer has " + std::to_string(weights.size()) + " weights for " + std::to_string(next) +
             " n-grams");
  int64_t width = 0;
  for (int64_t i : indexes) {
    if (i < 0) badInput("TfIdfVectorizer ngram_indexes holds " + std::to_string(i));
    width = std::max(width, i + 1);
  }
  const int64_t rows = x.rank() == 2 ? x.dim(0) : 1;
  const int64_t cols = x.rank() == 2 ? x.dim(1) : x.dim(0);
  Tensor y = Tensor::zeros(ir::DataType::Float,
                           x.rank() == 2 ? std::vector<int64_t>{rows, width} : std::vector<int64_t>{width});
  float* out = y.mutableData<float>();
  auto item = [&](int64_t k) -> Item {
    if (strings) return x.stringValues()[k];
    return x.int64At(k);
  };
  std::vector<int64_t> found(static_cast<size_t>(next));
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(found.begin(), found.end(), 0);
    for (int64_t start = 0; start < cols; ++start)
      for (int64_t skip = 0; skip <= maxSkip; ++skip) {
        if (skip > 0 && start + skip + 1 >= cols) break;  // no second item: longer skips find nothing new
        Gram g;
        for (int64_t n = 1; n <= maxGram; ++n) {
          const int64_t at = start + (n - 1) * (skip + 1);
          if (at >= cols) break;
          g.push_back(item(r * cols + at));
          if (n < minGram || (n == 1 && skip > 0)) continue;
          auto it = ordinal.find(g);
          if (it != ordinal.end()) ++found[it->second];
        }
        if (maxGram == 1) break;  // unigrams do not depend on the skip
      }
    for (int64_t i = 0; i < next; ++i) {
      if (!found[i]) continue;
      const float w = weights.empty() ? 1.0f : weights[i];
      float v = static_cast<float>(found[i]);
      if (mode == "IDF") v = w;
      if (mode == "TFIDF") v *= w;
      out[r * width + indexes[i]] = v;
    }
  }
  return {y};
}

}  // namespace

void registerTextKernels(KernelRegistry& r) { r.add("TfIdfVectorizer", 9, tfIdf); }

}  // namespace fb::eval
