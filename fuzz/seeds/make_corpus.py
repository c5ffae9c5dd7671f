#!/usr/bin/python3
"""Writes the hand-built seed files of fuzz/corpus/{png,tiff,pfm,npy}: small valid files of every
layout the readers accept, and a few they refuse, so fuzzing starts from each code path.
The TIFFs of the compressed codecs come from make_tiff_seeds.cpp (libtiff's own encoders)."""
import os
import struct
import sys
import zlib

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus")


def put(target, name, data):
    os.makedirs(os.path.join(ROOT, target), exist_ok=True)
    with open(os.path.join(ROOT, target, name), "wb") as f:
        f.write(data)


# PNG ---------------------------------------------------------------------------------------------
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(width, height, depth, color, rows, interlace=0, extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace)
    raw = b"".join(b"\0" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) +
            chunk(b"IEND", b""))


def png_seeds():
    g = np.arange(12, dtype=np.uint8).reshape(3, 4) * 20
    put("png", "gray8_4x3.png", png(4, 3, 8, 0, [r.tobytes() for r in g]))
    rgb = np.arange(36, dtype=np.uint8).reshape(3, 12) * 7
    put("png", "rgb8_4x3.png", png(4, 3, 8, 2, [r.tobytes() for r in rgb]))
    rgba = np.arange(48, dtype=np.uint8).reshape(3, 16) * 5
    put("png", "rgba8_4x3.png", png(4, 3, 8, 6, [r.tobytes() for r in rgba]))
    ga = np.arange(24, dtype=np.uint8).reshape(3, 8) * 9
    put("png", "grayalpha8_4x3.png", png(4, 3, 8, 4, [r.tobytes() for r in ga]))
    g16 = (np.arange(12, dtype=">u2").reshape(3, 4) * 5000)
    put("png", "gray16_4x3.png", png(4, 3, 16, 0, [r.tobytes() for r in g16]))
    rgb16 = (np.arange(36, dtype=">u2").reshape(3, 12) * 1700)
    put("png", "rgb16_4x3.png", png(4, 3, 16, 2, [r.tobytes() for r in rgb16]))
    palette = chunk(b"PLTE", bytes([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]))
    trns = chunk(b"tRNS", bytes([255, 128]))
    idx = [bytes([0, 1, 2, 3]), bytes([3, 2, 1, 0]), bytes([1, 1, 2, 2])]
    put("png", "palette_trns_4x3.png", png(4, 3, 8, 3, idx, extra=palette + trns))
    put("png", "gray1_9x2.png", png(9, 2, 1, 0, [bytes([0xA5, 0x80]), bytes([0x5A, 0x00])]))
    # Adam7 of a 5×5 gray image: the passes' rows in order, each with its filter byte.
    img = np.arange(25, dtype=np.uint8).reshape(5, 5) * 10
    passes = [(0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2), (1, 0, 2, 1)]
    raw = b""
    for y0, x0, ys, xs in passes:
        for y in range(y0, 5, ys):
            row = img[y, x0::xs]
            if row.size:
                raw += b"\0" + row.tobytes()
    ihdr = struct.pack(">IIBBBBB", 5, 5, 8, 0, 0, 0, 1)
    put("png", "interlaced_5x5.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
        chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# TIFF (uncompressed, hand-built) -----------------------------------------------------------------
def tiff(width, height, spp, bits, fmt, planes, big_endian=False, planar=1):
    """planes: one bytes object per strip (one strip per plane when planar == 2)."""
    e = ">" if big_endian else "<"
    entries = []
    data = b"".join(planes)
    data_offset = 8
    offsets, counts, at = [], [], data_offset
    for p in planes:
        offsets.append(at)
        counts.append(len(p))
        at += len(p)
    ifd_offset = at + (at & 1)
    extra = b""
    extra_at = ifd_offset + 2 + 12 * 11 + 4

    def entry(tag, typ, values):
        nonlocal extra, extra_at
        size = {3: 2, 4: 4}[typ]
        packed = b"".join(struct.pack(e + ("H" if typ == 3 else "I"), v) for v in values)
        if len(packed) <= 4:
            return struct.pack(e + "HHI", tag, typ, len(values)) + packed.ljust(4, b"\0")
        off = extra_at + len(extra)
        extra += packed
        return struct.pack(e + "HHII", tag, typ, len(values), off)

    entries = [
        entry(256, 4, [width]), entry(257, 4, [height]), entry(258, 3, [bits] * spp), entry(259, 3, [1]),
        entry(262, 3, [1 if spp < 3 else 2]), entry(273, 4, offsets), entry(277, 3, [spp]),
        entry(278, 4, [height]), entry(279, 4, counts), entry(284, 3, [planar]), entry(339, 3, [fmt] * spp)
    ]
    ifd = struct.pack(e + "H", len(entries)) + b"".join(entries) + struct.pack(e + "I", 0)
    header = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, ifd_offset)
    return header + data + b"\0" * (ifd_offset - at) + ifd + extra


def tiff_seeds():
    g = np.arange(12, dtype="u1").reshape(3, 4) * 20
    put("tiff", "gray8_4x3.tif", tiff(4, 3, 1, 8, 1, [g.tobytes()]))
    g16 = np.arange(36, dtype=">u2").reshape(3, 12) * 1800
    put("tiff", "rgb16_be_4x3.tif", tiff(4, 3, 3, 16, 1, [g16.tobytes()], big_endian=True))
    f = (np.arange(12, dtype="<f4").reshape(3, 4) / 7)
    put("tiff", "gray_f32_4x3.tif", tiff(4, 3, 1, 32, 3, [f.tobytes()]))
    planes = [np.full((3, 4), 60 * (i + 1), "u1").tobytes() for i in range(3)]
    put("tiff", "rgb8_planar_4x3.tif", tiff(4, 3, 3, 8, 1, planes, planar=2))
    d = np.arange(8, dtype="<f8").reshape(2, 4) * 0.25
    put("tiff", "gray_f64_4x2.tif", tiff(4, 2, 1, 64, 3, [d.tobytes()]))
    q = np.arange(16, dtype="<u4").reshape(2, 8) * 100000
    put("tiff", "ga_u32_4x2.tif", tiff(4, 2, 2, 32, 1, [q.tobytes()]))
    s = np.arange(12, dtype="<i2").reshape(3, 4)
    put("tiff", "refused_int16_4x3.tif", tiff(4, 3, 1, 16, 2, [s.tobytes()]))


# PFM and NPY -------------------------------------------------------------------------------------
def pfm_seeds():
    g = np.arange(12, dtype="<f4").reshape(3, 4) / 3
    put("pfm", "gray_le_4x3.pfm", b"Pf\n4 3\n-1.0\n" + g[::-1].tobytes())
    c = np.arange(36, dtype=">f4").reshape(3, 12) / 9
    put("pfm", "rgb_be_4x3.pfm", b"PF\n4 3\n1.0\n" + c[::-1].tobytes())
    n = np.array([[np.nan, np.inf], [-np.inf, 1e-40]], dtype="<f4")
    put("pfm", "nonfinite_2x2.pfm", b"Pf 2 2 -2.5 " + n.tobytes())


def npy(array, version=1, descr=None, fortran=False):
    descr = descr or array.dtype.str
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, tuple(array.shape))
    size = 2 if version == 1 else 4
    pad = (64 - (8 + size + len(header) + 1) % 64) % 64
    header = (header + " " * pad + "\n").encode()
    return (b"\x93NUMPY" + bytes([version, 0]) + struct.pack("<H" if size == 2 else "<I", len(header)) +
            header + array.tobytes())


def npy_seeds():
    put("npy", "u8_3x4_v1.npy", npy(np.arange(12, dtype="u1").reshape(3, 4)))
    put("npy", "f4_3x4x3_v2.npy", npy(np.arange(36, dtype="<f4").reshape(3, 4, 3) / 5, version=2))
    put("npy", "f8_be_2x3.npy", npy(np.arange(6, dtype=">f8").reshape(2, 3) / 3))
    put("npy", "u2_2x2x5_v3.npy", npy(np.arange(20, dtype="<u2").reshape(2, 2, 5) * 999, version=3))
    put("npy", "u4_be_2x2.npy", npy(np.arange(4, dtype=">u4").reshape(2, 2) * 70000))
    put("npy", "u8_2x2.npy", npy(np.arange(4, dtype="<u8").reshape(2, 2)))
    put("npy", "refused_fortran_2x2.npy", npy(np.arange(4, dtype="<f4").reshape(2, 2), fortran=True))


if __name__ == "__main__":
    png_seeds()
    tiff_seeds()
    pfm_seeds()
    npy_seeds()
    sys.exit(0)
