#!/usr/bin/env bash
# One entry point for the README's two commands:
#   packaging/setup.sh run    install, build, start the app on the bundled sample model
#   packaging/setup.sh test   install, build, run the whole test suite with ctest
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
bash packaging/install-deps.sh
if [ "$mode" = test ] && [ -f tests/oracle/package.json ]; then
  bash tests/oracle/install.sh
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
case "$mode" in
  run)
    if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
      exec ./build/bin/flowbridge "${@:2}"
    else
      echo "no display: starting the app under xvfb-run"
      exec xvfb-run -a ./build/bin/flowbridge "${@:2}"
    fi
    ;;
  test)
    (cd build && ctest --output-on-failure -j1)
    # The hostile-input tests again under ASan + UBSan (core, CLI and those tests only), when
    # FLOWBRIDGE_SANITIZE_TESTS=1: a second build of the core, not yet timed on CI's machine.
    if [ "${FLOWBRIDGE_SANITIZE_TESTS:-0}" = 1 ]; then
      cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOWBRIDGE_SANITIZE=ON >/dev/null
      cmake --build build-sanitize -j"$(nproc)" --target flowbridge-cli test_bad_input_core test_cli_bad_inputs
      cd build-sanitize && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
        exec ctest --output-on-failure -j1 -R '^(bad_inputs|bad_inputs_generate|test_bad_input_core|test_cli_bad_inputs)$'
    fi
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 1
    ;;
esac
