#pragma once
// Copies made once from a model's constant bytes and kept while those bytes live, so that repeated runs of one
// loaded model do not make them again: the aligned copy of an initializer the file stores unaligned (68-80 MB per
// run of resnet50 or swin_t before), oneDNN's blocked layout of a Conv's weights (a reorder of every weight per run
// before). An entry is found by the bytes it was made from (their address and their holder, the model's buffer or
// an earlier copy) and by what it is (`kind`); it is dropped once that holder is gone (looked at on each insert).
// Copies are not charged to a run's memory budget: each is bounded by constant bytes the model already holds, and
// all of them together by kMaxDerivedBytes (past it, copies are made per call as before and not kept).
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace fb::eval {

inline constexpr size_t kMaxDerivedBytes = size_t{2} << 30;

// `bytes` 64-byte aligned bytes that `fill` wrote once for (`holder`, `data`, `kind`); made now when there is no
// live entry. `holder` must keep `data` alive and unchanged (a model's buffer, or a copy this cache made).
std::shared_ptr<const void> derivedCopy(const std::shared_ptr<const void>& holder, const void* data,
                                        const std::string& kind, size_t bytes, const std::function<void(void*)>& fill);

// Drops now the copies whose source bytes are gone (a closed model's) instead of at the next insert; returns the
// bytes freed. The app calls it when a model is closed or replaced.
size_t releaseOrphanedDerivedCopies();

}  // namespace fb::eval
