#!/usr/bin/python3
"""Writes fuzz/corpus/design and fuzz/corpus/cli: byte strings in the layouts fuzz_design.cpp and
fuzz_cli.cpp read (see their FuzzBytes draws and argument splitting)."""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus")


def put(target, name, data):
    os.makedirs(os.path.join(ROOT, target), exist_ok=True)
    with open(os.path.join(ROOT, target, name), "wb") as f:
        f.write(data)


def decimal(value):
    """FuzzBytes::number's decimal form: a kind byte in [96, 224) and two bytes."""
    hi = int(round(value * 64)) + 128
    lo = int(round((value - (hi - 128) / 64) * 16384)) + 128
    return bytes([100, hi, lo])


SPECIAL = {"nan": 0, "inf": 1, "max": 3, "denorm": 5, "zero": 9, "one": 11, "near_one": 13, "2": 19,
           "2000": 24, "over_2000": 25, "4": 26}
IMAGE = bytes([6, 4, 1, 1]) + bytes(range(0, 250, 7))  # 7×5×2 of ramps, scale 1


def design_seeds():
    for b, boundary in enumerate(["none", "zero", "clamp", "periodic", "reflect", "mirror"]):
        # feedback, order 1, a1 = -0.5, unit gain, same pass both ways
        put("design", "iir_o1_%s" % boundary, bytes([0, b, 0]) + decimal(-0.5) + bytes([0, 1]) + IMAGE)
    put("design", "iir_o3_gain", bytes([0, 2, 2]) + decimal(-1.2) + decimal(0.45) + decimal(-0.05) +
        bytes([1]) + decimal(0.2) + bytes([1]) + IMAGE)
    put("design", "iir_nan", bytes([0, 0, 1, 0, SPECIAL["nan"], 0, 1]) + IMAGE)
    put("design", "iir_near_one", bytes([0, 3, 0, SPECIAL["near_one"], 0, 1]) + IMAGE)
    put("design", "iir_o6_raw", bytes([0, 4, 5]) + bytes([230, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0]) * 6 +
        bytes([0, 0]) + decimal(0.1) * 6 + IMAGE)
    for m, method in enumerate(["vanvliet", "deriche2", "deriche4", "twoway"]):
        for b in (0, 4):
            put("design", "gauss_%s_b%d" % (method, b), bytes([1, b, SPECIAL["2"], m]) + IMAGE)
    put("design", "gauss_sigma_max", bytes([1, 2, SPECIAL["2000"], 0]) + IMAGE)
    put("design", "gauss_sigma_over", bytes([1, 2, SPECIAL["over_2000"], 3]) + IMAGE)
    put("design", "gauss_deriche4_4", bytes([1, 0, SPECIAL["4"], 2]) + IMAGE)
    for order in (1, 2, 3, 5, 7, 9, 11):
        put("design", "bspline_%d" % order, bytes([2, order % 6, order + 2]) + IMAGE)


def argv(command, io, *args):
    return bytes([command, io]) + "\n".join(args).encode()


def cli_seeds():
    iir, gaussian, bspline, sat, box = range(5)
    png, npy, tif, png16 = range(4)
    out_png, out_tif, out_npy, out_pfm = (0 << 2, 1 << 2, 2 << 2, 3 << 2)
    batch = 0x10
    put("cli", "iir_o1", argv(iir, png | out_png, "--feedback", "-0.5"))
    put("cli", "iir_o3_gains", argv(iir, npy | out_npy, "--feedback", "-1.2,0.45,-0.05", "--gain", "0.2",
                                     "--boundary", "reflect", "--algorithm", "rt", "--device", "cpu"))
    put("cli", "iir_xy", argv(iir, tif | out_tif, "--feedback-x", "-0.5", "--feedback-y", "-0.25,0.01",
                               "--gain-x", "0.5", "--gain-y", "0.76", "--axes", "x"))
    put("cli", "iir_bad_coefficients", argv(iir, png | out_png, "--feedback", "1e999,,nan"))
    put("cli", "iir_unstable", argv(iir, png | out_pfm, "--feedback", "-1.5"))
    put("cli", "gaussian", argv(gaussian, png | out_png, "--sigma", "2"))
    put("cli", "gaussian_methods", argv(gaussian, npy | out_tif, "--sigma", "1.5", "--method", "deriche4",
                                        "--output-type", "float32"))
    put("cli", "gaussian_twoway", argv(gaussian, png16 | out_png, "--sigma", "3", "--method", "twoway",
                                       "--output-type", "uint16"))
    put("cli", "gaussian_batch", argv(gaussian, png | batch, "--sigma", "2", "@in", "@in2", "--out-dir", "@dir"))
    put("cli", "gaussian_sigma_bad", argv(gaussian, png | out_png, "--sigma", "-inf", "--method", "deriche2",
                                          "--boundary", "mirror"))
    put("cli", "bspline", argv(bspline, tif | out_tif, "--order", "5", "--boundary", "periodic"))
    put("cli", "bspline_even", argv(bspline, png | out_tif, "--order", "4"))
    put("cli", "sat", argv(sat, png | out_npy, "--algorithm", "2r1w", "--exclusive"))
    put("cli", "sat_float", argv(sat, npy | out_npy, "--algorithm", "naive"))
    put("cli", "box", argv(box, png | out_png, "--radius", "2", "--boundary", "clamp"))
    put("cli", "box_zero", argv(box, npy | out_pfm, "--radius", "0"))
    put("cli", "help", argv(iir, png | batch, "--help"))
    put("cli", "same_in_out", argv(gaussian, png | batch, "@in", "@in", "--sigma", "1"))
    put("cli", "cuda", argv(gaussian, png | out_png, "--sigma", "1", "--device", "cuda"))


if __name__ == "__main__":
    design_seeds()
    cli_seeds()
