#!/usr/bin/env bash
# One entry point for the README's two commands:
#   packaging/setup.sh run    install, build, start the app on the bundled sample model
#   packaging/setup.sh test   install, build, run the whole test suite with ctest
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
bash packaging/install-deps.sh
if [ "$mode" = test ]; then
  bash packaging/format-check.sh  # first: a style slip fails in seconds, not after the build
  if [ -f tests/oracle/package.json ]; then bash tests/oracle/install.sh; fi
fi
# The test command is what CI runs: there a new compiler warning fails the build (-Werror). `run` builds the same
# folder without it, so a user's other compiler version cannot stop the app from building.
werror=OFF
if [ "$mode" = test ]; then werror=ON; fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOWBRIDGE_WERROR=$werror >/dev/null
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
    # The hostile-input tests again under ASan + UBSan (a second, -O1 build of the core, the CLI and those tests).
    bash packaging/sanitize-test.sh build-sanitize
    # The Debian package: built, installed with apt-get, its programs run (packaging/README.md).
    bash packaging/deb-test.sh build
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 1
    ;;
esac
