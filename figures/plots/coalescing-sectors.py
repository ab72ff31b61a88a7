#!/usr/bin/python3
"""Chapter 2.1's model as a picture: one warp's 32 lanes, the bytes they ask for, and the 32-byte
sectors and 128-byte lines those bytes fall in.

    figures/plots/coalescing-sectors.py RECORDS_DIR OUT_DIR

writes OUT_DIR/coalescing-sectors.svg, drawn from the model alone (RECORDS_DIR is accepted for the
interface every figure script shares and not read: the sectors a warp touches do not depend on a
GPU). One row per access pattern of the chapter's gather, out[i] = in[offset + stride * i] on
4-byte floats from a 128-byte aligned array: lane i asks for bytes 4 (offset + stride i) to
4 (offset + stride i) + 3. Each row draws the lanes on top, a line from each lane to its bytes, and
below them the 128-byte lines the warp touches cut into their four sectors, the touched sectors
filled; its title gives the model's counts (warp_touch in src/coalescing/coalescing_model.h) and
the share of the moved bytes the warp uses. tests/render/test_plots.py checks the counts against
the chapter's model tests."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the SVG set-up and the atomic save)

TARGET = 'coalescing-sectors.svg'
LANES = 32
SECTOR = 32
LINE = 128
FLOAT = 4

# (label, stride in floats, offset in floats)
PATTERNS = [
    ('unit stride', 1, 0),
    ('misaligned by 4 B', 1, 1),
    ('stride 2', 2, 0),
    ('stride 8', 8, 0),
    ('stride 32', 32, 0),
]


def lane_bytes(stride, offset):
    """The first byte each lane asks for."""
    return [FLOAT * (offset + stride * lane) for lane in range(LANES)]


def touch(stride, offset):
    """(sectors, lines) one warp's request touches: distinct 32- and 128-byte blocks."""
    sectors, lines = set(), set()
    for first in lane_bytes(stride, offset):
        for byte in (first, first + FLOAT - 1):
            sectors.add(byte // SECTOR)
            lines.add(byte // LINE)
    return sorted(sectors), sorted(lines)


def draw(plt):
    fig, axes = plt.subplots(len(PATTERNS), 1, figsize=(plotlib.WIDTH, 1.45 * len(PATTERNS)))
    for (label, stride, offset), ax in zip(PATTERNS, axes):
        sectors, lines = touch(stride, offset)
        first, last = lines[0] * LINE, (lines[-1] + 1) * LINE
        span = float(last - first)
        # Lanes on top (y = 1), memory below (y = 0): x runs over the touched lines' bytes.
        for lane, byte in enumerate(lane_bytes(stride, offset)):
            x_lane = (lane + 0.5) / LANES * span
            x_byte = byte - first + FLOAT / 2
            ax.plot([x_lane, x_byte], [0.92, 0.28], color='#555555', linewidth=0.5)
            ax.add_patch(plt.Rectangle((lane / LANES * span, 0.92), span / LANES, 0.12,
                                       facecolor='#dddddd', edgecolor='black', linewidth=0.3))
        for line in range(lines[0], lines[-1] + 1):
            for s in range(LINE // SECTOR):
                sector = line * (LINE // SECTOR) + s
                ax.add_patch(plt.Rectangle((line * LINE + s * SECTOR - first, 0.0), SECTOR, 0.28,
                                           facecolor='#1f77b4' if sector in sectors else 'white',
                                           edgecolor='#999999', linewidth=0.8))
            ax.add_patch(plt.Rectangle((line * LINE - first, 0.0), LINE, 0.28, fill=False,
                                       edgecolor='black', linewidth=1.0))
        used = LANES * FLOAT / float(len(sectors) * SECTOR)
        ax.set_title('%s: %d sectors in %d line%s,\n%s%% of their bytes used' %
                     (label, len(sectors), len(lines), '' if len(lines) == 1 else 's',
                      ('%.1f' % (100 * used)).rstrip('0').rstrip('.')), fontsize=plotlib.MIN_POINTS)
        ax.set_xlim(-span * 0.01, span * 1.01)
        ax.set_ylim(-0.05, 1.1)
        ax.set_yticks([0.14, 0.98])
        ax.set_yticklabels(['bytes', 'lanes'], fontsize=plotlib.MIN_POINTS)
        ax.set_xticks([0, span])
        ax.set_xticklabels(['0', '%d B' % span], fontsize=plotlib.MIN_POINTS)
        for side in ('top', 'right', 'left'):
            ax.spines[side].set_visible(False)
    fig.suptitle('One warp\'s load: lanes, bytes,\n32 B sectors (filled: touched), 128 B lines',
                 fontsize=plotlib.MIN_POINTS)
    fig.tight_layout()
    return fig


if __name__ == '__main__':
    sys.exit(plotlib.main_diagram(sys.argv[1:], __doc__, TARGET, draw))
