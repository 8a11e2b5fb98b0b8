#!/usr/bin/env bash
# Runs each libFuzzer harness for SECONDS (default 60), seeded with the bad-input suite and the corpus.
#   fuzz/run_fuzzers.sh BUILD_DIR [SECONDS]
# BUILD_DIR was configured with -DFLOWBRIDGE_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang and built
# with --target fuzz_onnx_reader fuzz_oneflow_reader. Findings (crash-*, timeout-*, leak-*) go to BUILD_DIR/fuzz-findings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
seconds=${2:-60}
cases=$build/bad-inputs/cases
[ -d "$cases" ] || /usr/bin/python3 "$here/../tests/bad_inputs/make_bad_inputs.py" --out "$cases" --corpus "$here/../../shared/corpus"
mkdir -p "$build/fuzz-findings"
for target in fuzz_onnx_reader fuzz_oneflow_reader; do
  seeds=$build/fuzz-seeds/$target
  mkdir -p "$seeds"
  if [ "$target" = fuzz_onnx_reader ]; then
    find "$cases" -name '*.onnx' -type f -size -64k -exec cp -t "$seeds" {} + 2>/dev/null || true
  else
    # The harness reads the first byte as the file kind (0 job.pb, 1 job.prototxt, 2 saved_model.pb).
    n=0
    while IFS= read -r f; do
      case "$f" in
        */job.pb) kind='\x00' ;; */job.prototxt) kind='\x01' ;; */saved_model.pb) kind='\x02' ;; *) continue ;;
      esac
      { printf "$kind"; cat "$f"; } > "$seeds/seed_$n"; n=$((n + 1))
    done < <(find "$cases" -type f -size -64k)
  fi
  echo "== $target: $seconds s"
  (cd "$build/fuzz-findings" && ASAN_OPTIONS=detect_leaks=1 "$build/bin/$target" "$seeds" -max_total_time="$seconds" \
     -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 2>&1 | tail -15) || true
done
ls -la "$build/fuzz-findings"
