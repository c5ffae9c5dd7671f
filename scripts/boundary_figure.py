#!/usr/bin/env python3
"""Makes docs/boundary-periodic-vs-clamp.png: a tileable texture blurred with --boundary periodic
and with --boundary clamp, each tiled 2x2, side by side.

Usage: /usr/bin/python3 scripts/boundary_figure.py CASCADE_CLI [OUT.png]   (numpy, PIL)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

SIZE, SIGMA, GAP = 128, 8, 8


def tileable_texture(rng):
    """Sinusoids of whole periods over the square plus sharp periodic stripes: every row and
    column ends where the next copy begins."""
    y, x = np.mgrid[0:SIZE, 0:SIZE] * (2 * np.pi / SIZE)
    image = np.zeros((SIZE, SIZE, 3))
    for channel in range(3):
        for _ in range(6):
            fx, fy = rng.integers(-4, 5, 2)
            image[..., channel] += rng.uniform(0.3, 1.0) * np.cos(fx * x + fy * y + rng.uniform(0, 2 * np.pi))
    image += 1.5 * (np.sin(3 * x + 2 * y) > 0.6)[..., None] * np.array([1.0, 0.4, -0.6])
    return (image - image.min()) / (image.max() - image.min())


def main():
    cli = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "docs",
                                                            "boundary-periodic-vs-clamp.png")
    texture = tileable_texture(np.random.default_rng(7)).astype(np.float32)
    panels = []
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "texture.npy")
        np.save(source, texture)
        for boundary in ("periodic", "clamp"):
            target = os.path.join(folder, boundary + ".npy")
            subprocess.run([cli, "gaussian", source, target, "--sigma", str(SIGMA), "--boundary", boundary,
                            "--output-type", "float32"], check=True)
            panels.append(np.tile(np.load(target), (2, 2, 1)))
    # One contrast stretch for both panels, so that the seams are easy to see and compare.
    low, high = min(p.min() for p in panels), max(p.max() for p in panels)
    panels = [(p - low) / (high - low) for p in panels]
    gap = np.ones((2 * SIZE, GAP, 3), np.float32)
    figure = np.concatenate([panels[0], gap, panels[1]], axis=1)
    Image.fromarray((np.clip(figure, 0, 1) * 255 + 0.5).astype(np.uint8)).save(out)
    print("wrote", os.path.normpath(out))


if __name__ == "__main__":
    main()
