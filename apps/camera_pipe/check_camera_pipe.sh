#!/bin/sh
# check_camera_pipe.sh CAMERA_PIPE IN.png
#
# The camera-pipeline demo on the CPU: runs it on IN.png into a temporary folder and checks that
# the output and the mosaic preview are PNGs of IN.png's size (8-bit RGB and 8-bit gray), that the
# FIR comparison (--blur fir) runs too, and that bad arguments fail with one "camera_pipe: error:" line, status 1 and no output file.
set -u
bin=$1
input=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
  echo "check_camera_pipe: FAIL: $*" >&2
  exit 1
}

# The width, height, bit depth and colour type of a PNG's header (IHDR), or nothing.
png_header() {
  [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = "89504e470d0a1a0a" ] || return
  od -An -tu1 -j16 -N10 "$1" | awk '{ printf "%d %d %d %d\n", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8, $9, $10 }'
}

[ -x "$bin" ] || fail "no program $bin"
header=$(png_header "$input")
[ -n "$header" ] || fail "$input is not a PNG"
size=$(echo "$header" | cut -d' ' -f1,2)

"$bin" "$input" "$tmp/out.png" --device cpu --runs 3 --mosaic "$tmp/mosaic.png" >"$tmp/log" 2>&1
status=$?
cat "$tmp/log"
[ "$status" -eq 0 ] || fail "camera_pipe exited with status $status"
grep -q '^camera_pipe: cpu, .* ms (.* MP/s)$' "$tmp/log" || fail "no timing line"
[ -s "$tmp/out.png" ] || fail "no output file"
[ "$(png_header "$tmp/out.png")" = "$size 8 2" ] || fail "output is '$(png_header "$tmp/out.png")', expected '$size 8 2'"
[ "$(png_header "$tmp/mosaic.png")" = "$size 8 0" ] ||
  fail "mosaic is '$(png_header "$tmp/mosaic.png")', expected '$size 8 0'"
# A picture, not a flat field: the compressed output of a photo is more than a few KB.
[ "$(wc -c <"$tmp/out.png")" -gt 20000 ] || fail "output is suspiciously small ($(wc -c <"$tmp/out.png") bytes)"

# The comparison: the same pipeline with FIR Gaussians.
"$bin" "$input" "$tmp/fir.png" --device cpu --runs 1 --blur fir >"$tmp/log" 2>&1 || fail "--blur fir: $(cat "$tmp/log")"
grep -q '^camera_pipe: cpu (FIR Gaussians), .* ms (.* MP/s)$' "$tmp/log" || fail "--blur fir: no timing line"
[ "$(png_header "$tmp/fir.png")" = "$size 8 2" ] || fail "--blur fir: output is '$(png_header "$tmp/fir.png")'"

expect_error() {
  what=$1
  shift
  "$bin" "$@" >"$tmp/log" 2>&1
  status=$?
  [ "$status" -eq 1 ] || fail "$what: status $status, expected 1"
  [ "$(wc -l <"$tmp/log")" -eq 1 ] && grep -q '^camera_pipe: error: ' "$tmp/log" ||
    fail "$what: expected one 'camera_pipe: error:' line, got: $(cat "$tmp/log")"
  [ ! -e "$tmp/bad.png" ] || fail "$what: left an output file"
}
expect_error "unknown device" "$input" "$tmp/bad.png" --device gpu
expect_error "missing input" "$tmp/none.png" "$tmp/bad.png"
expect_error "bad --runs" "$input" "$tmp/bad.png" --runs 0
expect_error "bad --blur" "$input" "$tmp/bad.png" --blur box
expect_error "one positional argument" "$input"
echo "check_camera_pipe: OK"
