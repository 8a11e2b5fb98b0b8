#!/usr/bin/env bash
# Installs what FlowBridge needs on Debian bookworm. Idempotent and non-interactive; run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

PACKAGES=(
  cmake g++ make pkg-config            # build
  clang-format git                     # the style check of changed files (packaging/format-check.sh)
  qt6-base-dev qt6-svg-dev             # desktop UI: Widgets, Concurrent, Test (base), SVG export (svg)
  libonnx-dev python3-onnx             # ONNX protobuf classes, checker, shape inference, version converter
  libprotobuf-dev protobuf-compiler    # protobuf runtime; protoc for OneFlow's .proto
  libgraphviz-dev graphviz             # graph layout (libgvc) and renderers
  nlohmann-json3-dev libcli11-dev      # JSON output, command-line parsing
  libabsl-dev                          # abseil's flat_hash_map: the IR's name index
  libdnnl-dev                          # the evaluator's convolutions, matrix products, pooling (oneDNN)
  libjemalloc-dev                      # the executables' allocator (node-heavy graphs: 2-2.5x faster than glibc's)
  zlib1g-dev                           # CRC-32 of the zip entries in PyTorch checkpoints (codegen weights)
  fonts-dejavu-core                    # text in offscreen rendering (tests, screenshots)
  fonts-noto-mono fonts-droid-fallback # common fonts whose "monospace" is not fixed pitch: test_ui_code_font
  xvfb xauth                           # a display for the app on machines without one
  dpkg-dev file                        # CPack's .deb: dpkg-shlibdeps works out the package's dependencies
  python3-numpy                        # benchmark reference (python onnx.load)
  libonnx-testdata                     # ONNX's node tests (data/node): test_convert_node_suite
  python3-torch python3-torchvision python3-protobuf  # OneFlow test fixtures (tests/oneflow/make_fixtures.py),
                                                      # and make_corpus.py's larger benchmark models
)
# Node.js runs ONNX Runtime from npm as the test oracle (tests/oracle). A node already on PATH will do: a
# machine's own Node.js package (e.g. one that bundles npm) conflicts with Debian's npm.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm)
fi
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "dependencies: ok (${#PACKAGES[@]} packages)"
