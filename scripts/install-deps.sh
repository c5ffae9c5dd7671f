#!/usr/bin/env bash
# Installs what Cascade builds and tests with on Debian 12 (bookworm). Safe to run again.
#   scripts/install-deps.sh         everything: the library, the command line, the tests (python3-scipy
#                                   for the scipy agreement test, python3-dask and python3-distributed
#                                   for Dask arrays), the sanitizer build (clang-14, its
#                                   sanitizer and libFuzzer runtimes, llvm-14's symbolizer) and the
#                                   bench's OpenCV baselines
#   scripts/install-deps.sh build   what the library and the command line need, and GoogleTest, which
#                                   configuring looks for
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libhalide14-0-dev libcli11-dev libeigen3-dev
          libpng-dev libtiff-dev zlib1g-dev libgtest-dev nlohmann-json3-dev)
if [ "${1:-all}" != build ]; then
  packages+=(python3-scipy python3-dev pybind11-dev libdlpack-dev python3-pytest python3-dask python3-distributed
             clang-14 libclang-rt-14-dev llvm-14 libopencv-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
