#!/usr/bin/env bash
# Runs the libFuzzer harnesses for SECONDS each (default 60), JOBS at a time (default 2) under nice -n 19, seeded
# from the bad-input suite, ../shared/corpus, ONNX's node tests (libonnx-testdata) and the OneFlow fixtures.
#   fuzz/run_fuzzers.sh BUILD_DIR [SECONDS] [HARNESS...]
# BUILD_DIR was configured with -DFLOWBRIDGE_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang and
# built with --target fuzzers (fuzz/README.md). Env: JOBS; ONEFLOW_FIXTURES, a folder written by
# tests/oneflow/make_fixtures.py (default BUILD_DIR/oneflow-fixtures, generated when missing).
# Per harness, BUILD_DIR/fuzz-work/<harness>/ holds corpus/ (what the run found), seeds/, log.txt and findings/
# (crash-*, leak-*, timeout-*, oom-*). A finding is saved and the harness starts again for the rest of the time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
all="fuzz_onnx_reader fuzz_external_data fuzz_oneflow_job fuzz_oneflow_saved_model fuzz_oneflow_meta fuzz_convert_onnx fuzz_convert_oneflow fuzz_pickle fuzz_codegen"
harnesses=${*:-$all}
jobs=${JOBS:-2}
corpus=$(cd "$here/../../shared/corpus" && pwd)
cases=$build/bad-inputs/cases
[ -f "$cases/cases.json" ] || /usr/bin/python3 "$here/../tests/bad_inputs/make_bad_inputs.py" --out "$cases" --corpus "$corpus" >/dev/null
fixtures=${ONEFLOW_FIXTURES:-$build/oneflow-fixtures}
[ -d "$fixtures" ] || /usr/bin/python3 "$here/../tests/oneflow/make_fixtures.py" --out "$fixtures" >/dev/null
node_tests=/usr/share/libonnx-testdata/data/node
# fuzz_codegen's extra seeds: the hostile-name models of test_codegen_hostile_names (every string a payload).
hostile=$build/codegen-hostile
if [[ " $harnesses " == *" fuzz_codegen "* && ! -f $hostile/manifest.json ]]; then
  /usr/bin/python3 "$here/../tests/codegen/hostile_names.py" make --out "$hostile" --corpus "$corpus" >/dev/null
fi

# Small ONNX models: the bad inputs, the corpus's small files, ONNX's node tests.
onnx_seeds() {
  { find "$cases" "$corpus/models" -name '*.onnx' ! -name $'*\n*' -type f -size -64k; find "$node_tests" -name model.onnx -size -64k | sort | awk 'NR % 3 == 0'; } 2>/dev/null
}
oneflow_seeds() {  # graph files of the fixtures and the bad inputs
  find "$fixtures" "$cases" -type f -size -64k \( -name 'job*.pb' -o -name 'job*.prototxt' -o -name 'saved_model.*' \) 2>/dev/null
}
# Writes a seed: one selector byte (decimal), then the file.
seed() { { printf "\\$(printf '%03o' "$2")"; cat "$3"; } > "$1"; }

make_seeds() {
  local name=$1 dir=$2 n=0 f k
  case $name in
    fuzz_onnx_reader)
      onnx_seeds | while read -r f; do cp "$f" "$dir/s$((n++))"; done ;;
    fuzz_convert_onnx)
      onnx_seeds | while read -r f; do seed "$dir/s$n" $((n % 4)) "$f"; n=$((n + 1)); done ;;
    fuzz_codegen)  # length byte, file name, model: the hostile names' files keep theirs (cut to 63 bytes)
      onnx_seeds | while read -r f; do seed "$dir/s$n" 10 <(printf 'model.onnx'; cat "$f"); n=$((n + 1)); done
      /usr/bin/python3 - "$hostile/models" "$dir" <<'PY'
import os, sys
for n, name in enumerate(sorted(os.listdir(sys.argv[1].encode()))):
    data = open(os.path.join(sys.argv[1].encode(), name), "rb").read()
    if len(data) < 65536:
        open(os.path.join(sys.argv[2], "h%d" % n), "wb").write(bytes([len(name[:63])]) + name[:63] + data)
PY
      ;;
    fuzz_oneflow_job|fuzz_oneflow_saved_model|fuzz_convert_oneflow)
      oneflow_seeds | while read -r f; do
        case $name:$f in
          fuzz_oneflow_job:*/job.pb) k=0 ;; fuzz_oneflow_job:*/job.prototxt) k=1 ;;
          fuzz_oneflow_job:*/jobset.pb) k=2 ;; fuzz_oneflow_job:*/jobset.prototxt) k=3 ;;
          fuzz_oneflow_saved_model:*.pb) [[ $f == */saved_model.pb ]] && k=0 || continue ;;
          fuzz_oneflow_saved_model:*.prototxt) [[ $f == */saved_model.prototxt ]] && k=1 || continue ;;
          fuzz_convert_oneflow:*/job.pb) k=$((0 + 4 * (n % 4))) ;; fuzz_convert_oneflow:*/job.prototxt) k=$((1 + 4 * (n % 4))) ;;
          fuzz_convert_oneflow:*/saved_model.pb) k=$((2 + 4 * (n % 4))) ;;
          fuzz_convert_oneflow:*/saved_model.prototxt) k=$((3 + 4 * (n % 4))) ;;
          *) continue ;;
        esac
        seed "$dir/s$n" "$k" "$f"; n=$((n + 1))
      done ;;
    fuzz_oneflow_meta)
      find "$fixtures" "$cases" -name meta -type f -size -4k 2>/dev/null | awk 'NR <= 200' | while read -r f; do cp "$f" "$dir/s$((n++))"; done
      printf 'shape { dim: 4 dim: 4 }\ndata_type: kFloat\n' > "$dir/ok_text"
      printf 'shape { dim: 4 dim: 4 }\ndata_type: 2\n' > "$dir/ok_number"
      printf '#size 60\nshape { dim: 4 dim: 4 }\ndata_type: 2\n' > "$dir/short_out" ;;
    fuzz_pickle)  # flow.save pickles: the OneFlow tests' files (valid and hostile) and the bad inputs'
      [ -d "$build/flow-save-files" ] || /usr/bin/python3 "$here/../tests/weights/make_flow_save_files.py" --out "$build/flow-save-files" >/dev/null
      { find "$build/flow-save-files" "$cases" -type f -size -64k \( -name '*.of' -o -name pickled_data \); } 2>/dev/null |
        while read -r f; do cp "$f" "$dir/s$((n++))"; done ;;
    fuzz_external_data)
      printf 'dims 64\nlocation w.bin\n' > "$dir/whole"
      printf 'dims 4 4\nlocation w.bin\noffset 64\nlength 64\n' > "$dir/range"
      printf 'dims 16\nlocation sub/w.bin\ntensor\ntype 7\ndims 8\nlocation link_in.bin\noffset 128\n' > "$dir/two"
      printf 'dims 2\nlocation link_out.bin\n' > "$dir/symlink_out"
      printf 'dims 2\nlocation ../secret.bin\n' > "$dir/dotdot"
      printf 'dims 2\nlocation fifo.bin\n' > "$dir/fifo"
      printf 'dims 0\nlocation empty.bin\n' > "$dir/empty"
      printf 'dims 4611686018427387904 4\nlocation w.bin\noffset 18446744073709551600\nlength 64\n' > "$dir/overflow"
      printf 'type 8\ndims 2\nlocation folder.bin\nchecksum abc\n' > "$dir/folder" ;;
  esac
}

# One libFuzzer process at a time per harness; after a finding (which stops libFuzzer) it starts again on the
# corpus it has, until SECONDS have passed.
run_one() {
  local name=$1 work=$build/fuzz-work/$1 end left
  mkdir -p "$work/corpus" "$work/seeds" "$work/findings"
  [ -n "$(ls -A "$work/seeds")" ] || make_seeds "$name" "$work/seeds"
  : > "$work/log.txt"
  end=$(( $(date +%s) + seconds ))
  while left=$(( end - $(date +%s) )); [ "$left" -gt 5 ]; do
    (cd "$work" && ASAN_OPTIONS=detect_leaks=1 nice -n 19 "$build/bin/$name" corpus seeds -max_total_time="$left" \
       -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix=findings/ >> log.txt 2>&1) || true
  done
}

summary() {
  printf '%-26s %10s %7s %7s %7s %s\n' harness executions seconds cov ft "findings (crash/leak/timeout/oom)"
  for name in $harnesses; do
    local work=$build/fuzz-work/$name last execs
    last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$work/log.txt" 2>/dev/null | tail -1)
    execs=$(sed -nE 's/^stat::number_of_executed_units: ([0-9]+)/\1/p' "$work/log.txt" | awk '{s += $1} END {print s + 0}')
    printf '%-26s %10s %7s %7s %7s %s/%s/%s/%s\n' "$name" "$execs" "$seconds" \
      "$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")" "$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")" \
      "$(ls "$work/findings" | grep -c '^crash-')" "$(ls "$work/findings" | grep -c '^leak-')" \
      "$(ls "$work/findings" | grep -c '^timeout-')" "$(ls "$work/findings" | grep -c '^oom-')"
  done
}

running=0
for name in $harnesses; do
  [ -x "$build/bin/$name" ] || { echo "no $build/bin/$name (build --target fuzzers)" >&2; exit 1; }
  run_one "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait || true
summary
