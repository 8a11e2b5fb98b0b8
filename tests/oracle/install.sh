#!/usr/bin/env bash
# Installs the ONNX Runtime npm package used as the test oracle, next to run_model.mjs (ES modules resolve
# packages beside the script). Idempotent. The variable stops its install script from fetching CUDA libraries.
set -euo pipefail
cd "$(dirname "$0")"
if [ -f node_modules/onnxruntime-node/package.json ] &&
   grep -q '"version": "1.30.0"' node_modules/onnxruntime-node/package.json; then
  echo "oracle: onnxruntime-node 1.30.0 present"
  exit 0
fi
if [ -f package-lock.json ]; then
  ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
else
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund onnxruntime-node@1.30.0
fi
echo "oracle: onnxruntime-node installed"
