#!/usr/bin/env bash
# The install test: installs the build into a temporary prefix, builds tests/install as a project
# of its own against it (find_package(Cascade CONFIG)), and runs what it built.
# Usage: run.sh BUILD_DIR CPU_TARGET [CMAKE_ARGS...]  (the compiler and flags of a sanitized build)
set -euo pipefail
build=$1 target=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$here" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" -DCPU_TARGET="$target" \
  -DCMAKE_BUILD_TYPE=Release "$@" > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/build/consumer_funcs"
"$work/build/consumer_runtime"
# The Python package, where the build made it: imported from the prefix alone.
site=$(find "$work/prefix" -path '*/cascade/__init__.py' -printf '%h\n' | head -1)
if [ -n "$site" ]; then
  PYTHONPATH=$(dirname "$site") /usr/bin/python3 -c "
import numpy as np, cascade
x = np.random.default_rng(1).random((31, 47)).astype(np.float32)
y = cascade.gaussian_filter(x, 2.0)
assert y.shape == x.shape and abs(float(y.mean()) - float(x.mean())) < 1e-2
print('python: cascade imported from', cascade.__file__)"
fi
echo "installed: $(du -sh "$work/prefix" | cut -f1) in $work/prefix"
