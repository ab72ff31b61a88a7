"""The drawing half of figures/roofline.py: a chapter's roofline (numbered markers, filled where
placed by counted DRAM bytes, hollow where by model bytes), its levels figure (per DRAM, L2 and L1
byte), and the book's figure with its own key. Each figure is laid out at a fixed place, 390 px
wide (a phone's width), so marker positions in pixels are known before saving; the range is
fitted to the points and only the roofs inside it are drawn and named. matplotlib is imported only
when something is drawn."""
import os

SALT = 'kernels-and-the-machine'
# (ceiling, legend name, colour, line style, what it is); memory roofs first, then compute roofs.
MEMORY_ROOFS = [('dram_theoretical', r'$B_\mathrm{dram}$', '#777777', (0, (5, 3)), 'theoretical'),
                ('read_bandwidth', r'$B_\mathrm{read}$', '#c45a00', '-', 'measured'),
                ('copy_bandwidth', r'$B_\mathrm{copy}$', '#1f5fa8', '-', 'measured')]
# B_L2 is appendix A's measured L2 bandwidth (the faster of its L2 readers). B_smem, measured with shared loads, is the L1's data path, which global and local
# bytes pass as well as shared ones: the roof of both L1 levels.
LEVEL_ROOFS = [('l2_bandwidth', r'$B_\mathrm{L2}$', '#2a8a3e', (0, (1, 1.5)), 'measured'),
               ('shared_bandwidth', r'$B_\mathrm{smem}$', '#8e44ad', (0, (4, 1.5, 1, 1.5)), 'L1 data path: ▲ ◆')]
COMPUTE_ROOFS = [('fp32_fma_rate', r'$F_\mathrm{fp32}$', '#222222', '-', 'measured'),
                 ('bf16_tensor_rate', r'$F_\mathrm{bf16}$', '#222222', (0, (6, 2, 1, 2)), 'cuBLAS')]
COLOURS = ['#1f5fa8', '#c0392b', '#2a8a3e', '#8e44ad', '#c45a00', '#6d4c41', '#c2185b', '#00838f']
# The levels figure draws every memory roof, so its kernels take none of the roofs' colours.
LEVEL_COLOURS = ['#c0392b', '#00838f', '#6d4c41', '#c2185b', '#283593', '#827717', '#455a64']
# (point key, marker, legend): l1 counts global and local bytes only (l1tex__t_bytes); smem is 128 B
# for each wavefront of the LSU's shared pipe, at most the bytes it moved.
LEVELS = [('intensity', 'o', 'per DRAM byte'), ('l2', 's', 'per L2 byte'),
          ('l1', '^', 'per global/local byte through L1'), ('smem', 'D', 'per shared byte, 128 B a wavefront')]


def si(value, unit):
    for factor, prefix in ((1e15, 'P'), (1e12, 'T'), (1e9, 'G'), (1e6, 'M'), (1e3, 'k'), (1, '')):
        if value >= factor:
            return '%.3g %s%s' % (value / factor, prefix, unit)
    return '%.3g %s' % (value, unit)


def axis_range(points, ceilings, levels, side=None):
    """Log ranges fitted to the points (a margin around them), tall enough to show the memory roof
    above each point; with the reference beside (roofline_beside.py), its last rungs too."""
    keys = [key for key, *_ in LEVELS] if levels else ['intensity']
    xs = [p[key] for p in points for key in keys if key in p]
    best = max(ceilings.get(c) or 0 for c, *_ in MEMORY_ROOFS)
    top_compute = max(ceilings.get(c) or 0 for c, *_ in COMPUTE_ROOFS)
    roof_above = [min(best * p['intensity'], top_compute) for p in points]
    rates = [p['rate'] for p in points]
    if side:
        import roofline_beside
        roofline_beside.widen(side, xs, rates, roof_above, MEMORY_ROOFS, COMPUTE_ROOFS)
    lo_x, hi_x = min(xs) / 3, max(xs) * 3
    lo_y, hi_y = min(rates) / 3, max(rates + roof_above) * 2.5
    return (lo_x, hi_x), (lo_y, hi_y)


def setup(rows, key_rows=0):
    """A figure whose axes sit at a fixed place (so marker positions in pixels are known before
    saving) with room under them for `rows` legend lines: sized to stay legible at phone width."""
    import matplotlib
    matplotlib.use('Agg')
    matplotlib.rcParams.update({'svg.hashsalt': SALT, 'svg.fonttype': 'path', 'font.size': 10,
                                'font.family': 'DejaVu Sans', 'axes.titlesize': 10.5, 'mathtext.default': 'regular'})
    import matplotlib.pyplot as plt
    width, plot, legend = 3.9, 3.0, 0.62 + 0.21 * rows
    key = 0.19 * key_rows + (0.25 if key_rows else 0)
    height = plot + legend + key + 0.35
    fig = plt.figure(figsize=(width, height), dpi=100)
    ax = fig.add_axes([0.78 / width, (legend + key + 0.05) / height, (width - 0.92) / width, plot / height])
    ax.set_xscale('log')
    ax.set_yscale('log')
    return plt, fig, ax


def visible_compute_roofs(ceilings, xlim, ylim):
    """The compute roofs that show inside the range: below its top, their ridge left of its right
    edge (the weaver's alt text names the same ones)."""
    lowest = min(ceilings[r[0]] for r in MEMORY_ROOFS if ceilings.get(r[0]))
    return [r for r in COMPUTE_ROOFS if ceilings.get(r[0]) and ceilings[r[0]] <= ylim[1]
            and ceilings[r[0]] / lowest <= xlim[1]]


def roof_rows(ceilings, xlim, ylim, memory):
    shown = [r for r in memory if ceilings.get(r[0]) and ceilings[r[0]] * xlim[1] >= ylim[0]
             and ceilings[r[0]] * xlim[0] <= ylim[1]]
    return len(shown) + len(visible_compute_roofs(ceilings, xlim, ylim))


# The reference's faint roofs: the measured ones (roofline_beside.py).
MEASURED_MEMORY_ROOFS = [r for r in MEMORY_ROOFS if r[4] == 'measured']


def draw_roofs(ax, ceilings, xlim, ylim, with_levels, faint=False):
    """Each memory roof a diagonal up to the highest compute roof; each compute roof flat from
    where the lowest memory roof meets it. Only roofs inside the range are drawn and named in the
    legend. Returns the legend's handles. `faint`: the reference's measured roofs, dashed, pale
    and under this GPU's, each named by its value alone."""
    handles = []
    memory = (MEASURED_MEMORY_ROOFS if faint else MEMORY_ROOFS) + (LEVEL_ROOFS if with_levels else [])

    def line(key, xs, ys, name, colour, style, value, what):
        if faint:   # its SVG group is named reference-<ceiling>, so a test can find it
            import roofline_beside
            return ax.plot(xs, ys, linestyle=roofline_beside.DASHES, color=colour, linewidth=1.3,
                           alpha=roofline_beside.FAINT, zorder=1.5, label='%s %s' % (name, value),
                           gid='reference-' + key)[0]
        return ax.plot(xs, ys, linestyle=style, color=colour, linewidth=1.5, label='%s %s (%s)' % (name, value, what))[0]
    top = max(ceilings[r[0]] for r in COMPUTE_ROOFS if ceilings.get(r[0]))
    compute = visible_compute_roofs(ceilings, xlim, ylim)
    lo, hi = xlim
    for key, name, colour, style, what in memory:
        bandwidth = ceilings.get(key)
        if not bandwidth or bandwidth * hi < ylim[0] or bandwidth * lo > ylim[1]:
            continue
        knee = top / bandwidth
        xs = [lo, min(max(knee, lo), hi)]
        handles.append(line(key, xs, [bandwidth * x for x in xs], name, colour, style, si(bandwidth, 'B/s'), what))
    lowest = min(ceilings[r[0]] for r in memory if ceilings.get(r[0]))
    for key, name, colour, style, what in compute:
        rate = ceilings[key]
        handles.append(line(key, [max(rate / lowest, lo), hi], [rate, rate], name, colour, style, si(rate, 'FLOP/s'), what))
    return handles


def spots(anchors, gap, box, avoid=()):
    """Where each badge goes, in pixels: on its point if nothing is there yet, else the nearest free
    place beside it (right first, then left, stepping up and down), so no two badges overlap.
    Points are taken from the top down so a crowded column reads in the order of the rates. No
    badge covers another point, nor a place in `avoid` (the reference's diamonds)."""
    left, bottom, right, top = box
    candidates = [(0.0, 0.0)] + sorted(((dx * gap, dy * gap) for dx in (1.6, 2.7, 3.8, -1.6, -2.7, -3.8)
                                        for dy in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5)),
                                       key=lambda d: (abs(d[0]) + 0.9 * abs(d[1]), d[0] < 0, d[1] < 0))
    placed = {}
    for i in sorted(range(len(anchors)), key=lambda i: (-anchors[i][1], anchors[i][0])):
        x, y = anchors[i]
        for dx, dy in candidates:
            spot = (x + dx, y + dy)
            inside = left + gap / 2 <= spot[0] <= right - gap / 2 and bottom + gap / 2 <= spot[1] <= top - gap / 2
            free = all(abs(spot[0] - o[0]) >= gap or abs(spot[1] - o[1]) >= gap for o in placed.values())
            clear = all(abs(spot[0] - a[0]) >= gap / 2 or abs(spot[1] - a[1]) >= gap / 2
                        for a in [a for j, a in enumerate(anchors) if j != i] + list(avoid))
            if inside and free and clear:
                placed[i] = spot
                break
        else:
            placed[i] = (x, y)   # nowhere free: on its point, over whatever is there
    return [placed[i] for i in range(len(anchors))]


def badges(ax, points, colours, size=8.5, avoid=()):
    """Numbered markers: a point with room is its own badge; a crowded one gets a small dot and its
    badge beside it, joined by a thin line. Filled: placed by counted bytes; hollow: by model bytes.
    avoid: other points, in data coordinates, that no badge may cover."""
    gap = 2.6 * size                                      # pixels: a two-digit badge and a little
    anchors = [tuple(ax.transData.transform((p['intensity'], p['rate']))) for p in points]
    keep_clear = [tuple(ax.transData.transform(xy)) for xy in avoid]
    for p, colour, anchor, spot in zip(points, colours, anchors, spots(anchors, gap, ax.bbox.extents, keep_clear)):
        x, y = ax.transData.inverted().transform(spot)
        if spot != anchor:
            # The point's x is the datum on a log axis: the point itself is drawn where it is, large
            # enough to see, and only its number moves, joined to it by a line that can be followed.
            ax.plot([p['intensity'], x], [p['rate'], y], '-', color=colour, linewidth=1.0, alpha=0.9)
            ax.plot([p['intensity']], [p['rate']], 'o', color=colour, markersize=5.5, zorder=4,
                    markerfacecolor=colour if p['counted'] else 'white', markeredgewidth=1.2)
        ax.text(x, y, str(p['number']), ha='center', va='center', fontsize=size, fontweight='bold',
                color='white' if p['counted'] else colour, zorder=5,
                bbox=dict(boxstyle='circle,pad=0.22', facecolor=colour if p['counted'] else 'white',
                          edgecolor=colour, linewidth=1.2))


def marker_handles(points):
    from matplotlib.lines import Line2D
    handles = []
    if any(p['counted'] for p in points):
        handles.append(Line2D([], [], marker='o', linestyle='', color='#444444', markersize=8,
                              label='placed by DRAM bytes counted by ncu'))
    if any(not p['counted'] for p in points):
        handles.append(Line2D([], [], marker='o', linestyle='', color='#444444', markerfacecolor='white',
                              markersize=8, label="placed by the chapter's model bytes (no count)"))
    return handles


def x_label(points, levels=False):
    if levels:
        return 'FLOP per byte at each level, counted by ncu'
    if all(p['counted'] for p in points):
        return 'FLOP per DRAM byte, counted by ncu'
    if not any(p['counted'] for p in points):
        return 'FLOP per DRAM byte, as the model predicts'
    return 'FLOP per DRAM byte, ncu count (hollow: model)'


def roofs_text(ceilings, keys, xlim=None, ylim=None):
    """'B_read 4.3 TB/s, F_fp32 60 TFLOP/s': the roofs of `keys` that ceilings has (inside the range,
    where one is given)."""
    plain = {'dram_theoretical': 'B_dram (theoretical)', 'read_bandwidth': 'B_read', 'copy_bandwidth': 'B_copy',
             'l2_bandwidth': 'B_L2', 'shared_bandwidth': 'B_smem', 'fp32_fma_rate': 'F_fp32', 'bf16_tensor_rate': 'F_bf16'}
    if xlim:
        shown = {r[0] for r in MEMORY_ROOFS + LEVEL_ROOFS if ceilings.get(r[0]) and ceilings[r[0]] * xlim[1] >= ylim[0]
                 and ceilings[r[0]] * xlim[0] <= ylim[1]} | {r[0] for r in visible_compute_roofs(ceilings, xlim, ylim)}
        keys = [k for k in keys if k in shown]
    return ', '.join('%s %s' % (plain[key], si(ceilings[key], 'FLOP/s' if 'rate' in key else 'B/s'))
                     for key in keys if ceilings.get(key))


def description(points, ceilings, levels=False, beside=''):
    """The SVG's own description (its <dc:description>), for a reader who opens the file alone."""
    counted = sum(1 for p in points if p['counted'])
    what = ('%d kernels, up to four points each (per DRAM, L2, global/local L1 and shared byte)' % len(points)
            if levels else
            '%d kernels as numbered markers, %d placed by DRAM bytes counted by ncu, %d by model bytes'
            % (len(points), counted, len(points) - counted))
    roofs = roofs_text(ceilings, [key for key, *_ in MEMORY_ROOFS + (LEVEL_ROOFS if levels else []) + COMPUTE_ROOFS])
    return 'Log-log roofline: achieved FLOP/s against arithmetic intensity; %s; roofs %s.%s' % (what, roofs, beside)


KEY_POINTS = 8           # the book key's text
KEY_COLUMN = 0.47        # a key column's width, as a fraction of the figure's


def key_entries(series):
    return ['%d  %s %s' % (p['number'], p['chapter'], p['label']) for _, pts in series for p in pts]


def key_columns(series, width=3.9):
    """Two columns when every entry fits one (measured as drawn: DejaVu Sans at KEY_POINTS), else
    one: two columns of entries wider than a column ran into each other."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath
    font = FontProperties(family='DejaVu Sans', size=KEY_POINTS)
    measure = TextToPath()
    widest = max([measure.get_text_width_height_descent(e, font, ismath=False)[0]
                  for e in key_entries(series)] or [0])
    return 2 if widest <= (KEY_COLUMN - 0.02) * width * 72 else 1


def book_key(fig, series, rows, columns):
    """The book's figure is also opened on its own (the index links it): its key, number and
    kernel, sits under the legend in `columns` columns."""
    entries = key_entries(series)
    half = (len(entries) + columns - 1) // columns
    height = fig.get_size_inches()[1]
    for column in range(columns):
        for row, text in enumerate(entries[column * half:(column + 1) * half]):
            fig.text(0.03 + column * KEY_COLUMN, (rows - row * 0.19) / height, text, fontsize=KEY_POINTS, va='top')


def save(fig, plt, target, describe=None):
    fresh = target + '.new'
    fig.savefig(fresh, format='svg', metadata={'Date': None, 'Description': describe})
    plt.close(fig)
    os.replace(fresh, target)


def draw(series, ceilings, target, title=None, side=None):
    """series: [(legend or None, [point])]; the chapter figure is one unnamed series, the book's
    one per chapter (its colour in the legend). side: the reference GPU's, drawn faintly beside
    (roofline_beside.py), or None. Writes an SVG to target."""
    points = [p for _, pts in series for p in pts]
    colours = [COLOURS[n % len(COLOURS)] for n, (_, pts) in enumerate(series) for _ in pts]
    from matplotlib.lines import Line2D
    named = [Line2D([], [], marker='o', linestyle='', color=COLOURS[n % len(COLOURS)], markersize=8, label=legend)
             for n, (legend, pts) in enumerate(series) if legend and pts]
    xlim, ylim = axis_range(points or [{'intensity': 1.0, 'rate': ceilings['copy_bandwidth']}], ceilings, False, side)
    roofs_count = roof_rows(ceilings, xlim, ylim, MEMORY_ROOFS)
    beside_rows = 0
    if side:   # a header for each GPU, the reference's roofs drawn, a row for its diamonds
        beside_rows = 2 + roof_rows(side['ceilings'], xlim, ylim, MEASURED_MEMORY_ROOFS) + (1 if side['points'] else 0)
    columns = key_columns(series) if title else 0
    key_rows = -(-len(points) // columns) if title else 0   # the book's figure carries its own key
    plt, fig, ax = setup(roofs_count + len(marker_handles(points)) + len(named) + (1 if title else 0) + beside_rows,
                         key_rows)
    handles = draw_roofs(ax, ceilings, xlim, ylim, False)
    beside, theirs = '', []
    if side:
        import roofline_beside
        handles = [roofline_beside.header('solid: %s' % side['gpu'])] + handles
        theirs = roofline_beside.draw(ax, side, xlim, ylim, draw_roofs, points, colours)
        beside = roofline_beside.describe(side, roofs_text(side['ceilings'], [k for k, *_ in MEASURED_MEMORY_ROOFS + COMPUTE_ROOFS],
                                                           xlim, ylim))
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    if points:
        badges(ax, points, colours, avoid=[(p['intensity'], p['rate']) for p in side['points']] if side else ())
    finish(fig, ax, handles + marker_handles(points) + named + theirs,
           x_label(points) if points else 'FLOP per DRAM byte', title)
    if key_rows:
        book_key(fig, series, 0.12 + 0.19 * key_rows, columns)
    save(fig, plt, target, description(points, ceilings, beside=beside))


def number_ranges(numbers):
    """[4, 5, 6, 9] -> ['4-6', '9'] (an en dash): consecutive marker numbers as one range."""
    out = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return ['%d' % a if a == b else '%d–%d' % (a, b) for a, b in out]


def unseen_rows(numbers, width=40):
    """The legend's note on the kernels without L1 and shared points, in rows that fit the
    figure's width."""
    if not numbers:
        return []
    rows, row = [], 'no ▲ ◆ for'
    for part in number_ranges(numbers):
        if len(row) + len(part) + 2 > width:
            rows.append(row + ',')
            row = '   ' + part
        else:
            row += (' ' if row.endswith('for') else ', ') + part
    return rows + [row + ':', 'TMA, wgmma traffic the L1 counters miss']


def draw_levels(points, ceilings, target, title=None, side=None):
    """One kernel: a marker at its FLOP/s for each level counted (per DRAM, L2, global/local and
    shared byte), joined; its number beside the DRAM point. A kernel whose traffic the LSU's
    counters miss has no L1 or shared point, and a legend line names it. side: the reference GPU's
    (roofline_beside.py), whose measured roofs, DRAM, L2 and shared, are drawn faintly beside;
    its rungs are on the figure above, not here."""
    from matplotlib.lines import Line2D
    points = [p for p in points if 'l2' in p]
    xlim, ylim = axis_range(points, ceilings, True)
    roofs_count = roof_rows(ceilings, xlim, ylim, MEMORY_ROOFS + LEVEL_ROOFS)
    shapes = [Line2D([], [], marker=m, linestyle='', color='#444444', markersize=7, label=what)
              for key, m, what in LEVELS if any(key in p for p in points)]
    unseen = [p['number'] for p in points if p.get('unseen')]
    for row in unseen_rows(unseen):
        shapes.append(Line2D([], [], linestyle='', label=row))
    beside_rows = 2 + roof_rows(side['ceilings'], xlim, ylim, MEASURED_MEMORY_ROOFS + LEVEL_ROOFS) if side else 0
    plt, fig, ax = setup(roofs_count + len(shapes) + (1 if title else 0) + beside_rows)
    handles = draw_roofs(ax, ceilings, xlim, ylim, True)
    beside, theirs = '', []
    if side:
        import roofline_beside
        side = dict(side, points=[])
        handles = [roofline_beside.header('solid: %s' % side['gpu'])] + handles
        theirs = roofline_beside.draw(ax, side, xlim, ylim, draw_roofs, [], [], levels=True)
        beside = roofline_beside.describe(side, roofs_text(
            side['ceilings'], [k for k, *_ in MEASURED_MEMORY_ROOFS + LEVEL_ROOFS + COMPUTE_ROOFS], xlim, ylim))
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    for n, p in enumerate(points):
        colour = LEVEL_COLOURS[n % len(LEVEL_COLOURS)]
        drawn = [(p[key], marker) for key, marker, _ in LEVELS if key in p]
        ax.plot([x for x, _ in drawn], [p['rate']] * len(drawn), '-', color=colour, linewidth=0.8, alpha=0.8)
        for x, marker in drawn:
            ax.plot([x], [p['rate']], marker, color=colour, markersize=5.5 if marker == 'D' else 6,
                    markerfacecolor=colour)
    badges(ax, points, [LEVEL_COLOURS[n % len(LEVEL_COLOURS)] for n in range(len(points))], size=8)
    finish(fig, ax, handles + shapes + theirs, x_label(points, levels=True), title)
    save(fig, plt, target, description(points, ceilings, levels=True, beside=beside))


def intensity_tick(value):
    """'0.25', '50', '1000'; from 10^4 on in powers of ten ('$10^{5}$', '$2{\times}10^{4}$'), where
    '%g' would write '1e+05' and neighbouring labels run into each other."""
    if value < 1e4:
        return '%g' % value
    import math
    exponent = int(math.floor(math.log10(value) + 1e-9))
    mantissa = value / 10 ** exponent
    power = r'10^{%d}' % exponent
    return '$%s$' % power if abs(mantissa - 1) < 1e-6 else r'$%g{\times}%s$' % (mantissa, power)


def ticks(ax):
    """Plain numbers on the intensity axis (0.25, 2, 50) and SI prefixes on the rate axis (1 T),
    with the 2 and 5 between decades labelled where the range spans less than two decades."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    for axis, limits, show in ((ax.xaxis, ax.get_xlim(), intensity_tick),
                               (ax.yaxis, ax.get_ylim(), lambda v: si(v, '').strip())):
        axis.set_major_locator(LogLocator(base=10))
        axis.set_major_formatter(FuncFormatter(lambda v, _, show=show: show(v)))
        if limits[1] / limits[0] < 100:
            axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))
            axis.set_minor_formatter(FuncFormatter(lambda v, _, show=show: show(v)))
        else:
            axis.set_minor_locator(LogLocator(base=10, subs='auto'))
            axis.set_minor_formatter(NullFormatter())


def finish(fig, ax, handles, xlabel, title):
    ticks(ax)
    ax.set_xlabel(xlabel, fontsize=9.5)
    ax.set_ylabel('achieved FLOP/s')
    ax.grid(True, which='major', linewidth=0.4, color='#d0d0d0')
    if title:
        ax.set_title(title)
    # the legend's top a fixed 0.46 in under the axes (the x label's room): a fraction of the
    # figure's height put it ever lower in a taller figure, onto the book figure's key
    below = 0.46 / ax.figure.get_size_inches()[1]
    fig.legend(handles=handles, loc='upper left', bbox_to_anchor=(0.02, ax.get_position().y0 - below),
               fontsize=9.5, frameon=False, handlelength=2.4, borderaxespad=0)
