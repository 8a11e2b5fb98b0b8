#!/usr/bin/env bash
# Builds the Debian package from an already built tree, installs it as a user would, and runs what it
# installed: flowbridge-cli inspect on a corpus model and flowbridge --screenshot offscreen. Run as root (apt-get).
# The package is removed again afterwards unless it was installed before.
#   packaging/deb-test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
model=$(cd ../shared/corpus/models && pwd)/squeezenet1_0_op11.onnx
start=$(date +%s)
rm -f "$build"/flowbridge_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/flowbridge_*.deb)
contents=$(dpkg-deb -c "$deb")
for f in usr/bin/flowbridge usr/bin/flowbridge-cli usr/share/applications/org.flowbridge.FlowBridge.desktop \
         usr/share/metainfo/org.flowbridge.FlowBridge.metainfo.xml usr/share/mime/packages/flowbridge.xml \
         usr/share/icons/hicolor/scalable/apps/flowbridge.svg; do
  grep -q " \./$f\$" <<<"$contents" || { echo "deb-test: $deb lacks /$f" >&2; exit 1; }
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libprotobuf libgvc6 libonnx; do
  grep -q "$lib" <<<"$depends" || { echo "deb-test: Depends lacks $lib: $depends" >&2; exit 1; }
done

was_installed=0
dpkg-query -W -f='${Status}' flowbridge 2>/dev/null | grep -q "install ok installed" && was_installed=1
work=$(mktemp -d)
cleanup() {
  rm -rf "$work"
  if [ "$was_installed" = 0 ]; then apt-get remove -y -qq flowbridge >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
(cd "$build" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./flowbridge_*.deb >/dev/null)

# From the working folder of a stranger: nothing may come from the build tree.
cd "$work"
/usr/bin/flowbridge-cli inspect "$model" > inspect.txt
grep -q "Conv" inspect.txt || { echo "deb-test: inspect printed no Conv:" >&2; cat inspect.txt >&2; exit 1; }
QT_QPA_PLATFORM=offscreen /usr/bin/flowbridge "$model" --screenshot "$work/shot.png" --size 800x600
[ -s "$work/shot.png" ] || { echo "deb-test: no screenshot" >&2; exit 1; }
head -c 8 "$work/shot.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || { echo "deb-test: shot.png is not a PNG" >&2; exit 1; }
echo "deb-test: $(basename "$deb") ($(du -k "$deb" | cut -f1) KB) installs and runs; $(($(date +%s) - start)) s"
