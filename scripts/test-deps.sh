#!/usr/bin/env bash
# What `npm test` needs beyond node_modules, installed from Debian when missing (first run only): Chromium for the
# report's browser tests, and python3-torch with onnx/numpy/PIL for the shapes DPO trainer the loop tests run.
# rlaifv itself never needs Python; only its tests and the shapes trainer do.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# Debian's packages installed (dpkg-query, 10 ms) or, when some are not, the modules importable some other way (the
# import itself: importing torch takes 1 to 3.5 s).
py_debs=(python3-torch python3-onnx python3-numpy python3-pil libopenblas0-pthread)
installed=$(dpkg-query -W -f='${db:Status-Status}\n' "${py_debs[@]}" 2>/dev/null | grep -c '^installed$' || true)
if [ "$installed" -ne ${#py_debs[@]} ] && ! /usr/bin/python3 -c 'import torch, onnx, numpy, PIL' >/dev/null 2>&1; then
  need+=(python3 python3-torch python3-onnx python3-numpy python3-pil libopenblas0-pthread)
fi
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "rlaifv tests: installing ${need[*]} from Debian (once)" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
