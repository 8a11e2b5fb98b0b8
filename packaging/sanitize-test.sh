#!/usr/bin/env bash
# The hostile-input tests again under AddressSanitizer + UndefinedBehaviorSanitizer (packaging/setup.sh test runs
# this after the main suite): a second build of the core, the CLI, the bad-input tests and a few quick core tests,
# at -O1 (half the compile time of -O2; sanitizers find the same faults), in build-sanitize/.
#   packaging/sanitize-test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-sanitize}
tests='test_bad_input_core test_cli_bad_inputs test_ir_topology test_eval_kernels test_onnx_external_data test_passes_small test_passes_corpus test_oneflow_hostile_saves test_passes_fold_budget'
root=$PWD
start=$(date +%s)
# Without -Werror: GCC's flow-based warnings (-Wmaybe-uninitialized, -Warray-bounds, -Wstringop-*) depend on the
# optimisation level and see the sanitizers' instrumentation, so -O1 + ASan/UBSan can warn where the main build does
# not. The main build (setup.sh test) is the one that fails on a warning.
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -g1" "-DCMAKE_C_FLAGS=-O1 -g1" \
  -DFLOWBRIDGE_SANITIZE=ON -DFLOWBRIDGE_WERROR=OFF >/dev/null
# shellcheck disable=SC2086
cmake --build "$dir" -j"$(nproc)" --target flowbridge-cli $tests
built=$(date +%s)
regex="^(bad_inputs_generate|bad_inputs|$(echo $tests | tr ' ' '|'))\$"
# Leaks are findings too, except inside Qt's and fontconfig's own one-time allocations (suppressions file).
(cd "$dir" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0 \
   LSAN_OPTIONS=suppressions="$root/packaging/lsan-suppressions.txt":print_suppressions=0 \
   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   ctest --output-on-failure -j1 -R "$regex")
echo "sanitizer build: $((built - start)) s build, $(($(date +%s) - built)) s tests"
