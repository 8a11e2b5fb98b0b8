#pragma once
// The misc family's files, each registering its own ops; registerMiscKernels (misc.cpp) calls them.
namespace fb::eval {

class KernelRegistry;

void registerLossKernels(KernelRegistry& r);    // misc_loss.cpp: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void registerSignalKernels(KernelRegistry& r);  // misc_signal.cpp: DFT, STFT, windows, MelWeightMatrix
void registerStringKernels(KernelRegistry& r);  // misc_string.cpp: StringNormalizer, StringConcat, StringSplit, ...
void registerTextKernels(KernelRegistry& r);    // misc_tfidf.cpp: TfIdfVectorizer
void registerRandomKernels(KernelRegistry& r);  // misc_random.cpp: RandomNormal, RandomUniform, Bernoulli, ...

}  // namespace fb::eval
