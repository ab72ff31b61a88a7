#!/usr/bin/python3
"""Chapter 2.2's tile layouts: which bank holds each element, and what one warp's column read costs.

    figures/plots/banks-layouts.py RECORDS_DIR OUT_DIR

writes OUT_DIR/banks-layouts.svg, drawn from the chapter's model alone (RECORDS_DIR is accepted for
the interface every figure script shares and not read: the layouts do not depend on a GPU). One row
per layout: 32 x 32 (v2), 32 x 33 padded (v3), c xor r swizzled (v4) and v5's 64 x 64 `Wide`
swizzle. Left, the tile with each element coloured by its bank, bank(a) = floor(a / 4) mod 32, and
the elements one warp's column read asks for outlined. Right, for that read, the distinct words each
bank is asked for: the tallest bar is the request's wavefronts (the model's `wavefronts`).
The index functions copy src/transpose/layouts.h; tests/render/test_plots.py checks the counts
against the chapter's model tests (32, 1, 1, 1)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the SVG set-up and the atomic save)

TARGET = 'banks-layouts.svg'
BANKS = 32
TILE = 32
WIDE = 64


def tiled(r, c):
    return r * TILE + c


def padded(r, c):
    return r * (TILE + 1) + c


def swizzled(r, c):
    return r * TILE + (c ^ r)


def wide(r, c):
    return r * WIDE + (c ^ (2 * ((r >> 2) & 15)))


def column_read(rows):
    """The 32 (row, column) elements of one warp's read: lane x reads row x of column 0 of a
    32-row tile; in v5 lane (p, h) of the first half-warp pair reads row 4p, column h."""
    if rows == TILE:
        return [(x, 0) for x in range(32)]
    return [(4 * p, h) for p in range(16) for h in range(2)]


# (title, index function, rows, columns)
LAYOUTS = [
    ('v2: 32 × 32', tiled, TILE, TILE),
    ('v3: 32 × 33, padded', padded, TILE, TILE),
    ('v4: column c ⊕ r', swizzled, TILE, TILE),
    ('v5: 64 × 64, Wide swizzle', wide, WIDE, WIDE),
]


def bank(word):
    return word % BANKS


def words_per_bank(index, elements):
    """For each bank, the distinct words the read asks of it; max() is the wavefront count."""
    words = [set() for _ in range(BANKS)]
    for r, c in elements:
        word = index(r, c)
        words[bank(word)].add(word)
    return [len(w) for w in words]


def wavefronts(index, rows):
    return max(words_per_bank(index, column_read(rows)))


def draw(plt):
    fig, axes = plt.subplots(len(LAYOUTS), 2, figsize=(plotlib.WIDTH, 2.0 * len(LAYOUTS)),
                             gridspec_kw={'width_ratios': [1.2, 1]})
    colours = plt.get_cmap('hsv', BANKS)
    for (title, index, rows, cols), (tile_ax, bar_ax) in zip(LAYOUTS, axes):
        grid = [[bank(index(r, c)) for c in range(cols)] for r in range(rows)]
        tile_ax.imshow(grid, cmap=colours, vmin=0, vmax=BANKS - 1, interpolation='nearest')
        for r, c in column_read(rows):
            tile_ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False,
                                            edgecolor='black', linewidth=1.2))
        tile_ax.set_xticks([0, cols - 1])
        tile_ax.set_yticks([0, rows - 1])
        tile_ax.tick_params(labelsize=plotlib.MIN_POINTS)
        tile_ax.set_xlabel('column', fontsize=plotlib.MIN_POINTS, labelpad=0)
        tile_ax.set_ylabel('row', fontsize=plotlib.MIN_POINTS, labelpad=0)
        counts = words_per_bank(index, column_read(rows))
        bar_ax.bar(range(BANKS), counts, color=[colours(b) for b in range(BANKS)],
                   edgecolor='black', linewidth=0.3)
        bar_ax.set_xlim(-0.8, BANKS - 0.2)
        bar_ax.set_ylim(0, 34)
        bar_ax.set_xticks([0, 8, 16, 24, 31])
        bar_ax.set_yticks([0, 16, 32])
        bar_ax.tick_params(labelsize=plotlib.MIN_POINTS)
        bar_ax.set_xlabel('bank', fontsize=plotlib.MIN_POINTS, labelpad=0)
        bar_ax.set_ylabel('words asked', fontsize=plotlib.MIN_POINTS)
        n = max(counts)
        bar_ax.set_title('%s\none column read: %d wavefront%s' % (title, n, '' if n == 1 else 's'),
                         fontsize=plotlib.MIN_POINTS)
    fig.suptitle('Banks of each tile element;\noutlined: one warp\'s column read', fontsize=9.5)
    fig.tight_layout()
    return fig


if __name__ == '__main__':
    sys.exit(plotlib.main_diagram(sys.argv[1:], __doc__, TARGET, draw))
