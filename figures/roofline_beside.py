"""The reference GPU beside a roofline woven for another GPU (figures/roofline.py): its measured
roofs as faint dashed lines in the colours of this GPU's roofs, the last rung of each ladder as a
faint hollow diamond joined by a dotted line to this GPU's marker of the same kernel, and the
legend's rows that say which GPU is which. The weaver chooses the last rungs and places them on the
reference's own record (roofline-inputs.json: reference, each figure's reference_points,
book_reference_points). Woven for the reference itself there is none, and the figure is as before.

Faint is an opacity, not a paler colour: on white the lines are pale, and where the page's dark
mode inverts the figure (book/style.css) they stay the same hue, dim against the bright solid ones."""

FAINT = 0.55
DASHES = (0, (3.5, 2.5))


def number(value):
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


def point(entry):
    """A reference point from the weaver's placement (intensity, flop_rate, placed_by, number)."""
    intensity, rate = number(entry.get('intensity')), number(entry.get('flop_rate'))
    if not intensity or not rate:
        return None
    return {'number': int(entry.get('number') or 0), 'label': str(entry.get('label', '')),
            'chapter': str(entry.get('chapter', '')), 'intensity': intensity, 'rate': rate,
            'counted': entry.get('placed_by') == 'dram_bytes'}


def load(data, ceiling):
    """{'gpu', 'name', 'ceilings', 'points': {figure id: [point]}, 'book': [point]} from the
    inputs, or None woven for the reference (no "reference"). `ceiling` reads one ceiling."""
    reference = data.get('reference')
    if not isinstance(reference, dict):
        return None
    ceilings = {k: ceiling(v) for k, v in (reference.get('ceilings') or {}).items()}
    if not ceilings.get('copy_bandwidth') and not ceilings.get('read_bandwidth'):
        return None   # no measured memory roof: nothing of the reference can be drawn
    chapters = data.get('chapters', [])
    if isinstance(chapters, dict):
        chapters = [dict(v, id=k) for k, v in chapters.items()]
    figures = {str(c.get('id', '?')): [p for p in map(point, c.get('reference_points') or []) if p]
               for c in chapters}
    return {'gpu': str(data.get('gpu') or 'this GPU'), 'name': str(reference.get('gpu') or 'the reference'),
            'ceilings': ceilings, 'points': figures,
            'book': [p for p in map(point, data.get('book_reference_points') or []) if p]}


def for_figure(reference, figure):
    """The reference's side of one figure ("3.1", "4.1-rungs", "book"), or None."""
    if not reference:
        return None
    points = reference['book'] if figure == 'book' else reference['points'].get(figure, [])
    return {'gpu': reference['gpu'], 'name': reference['name'], 'ceilings': reference['ceilings'],
            'points': points}


def widen(side, xs, rates, roof_above, memory_roofs, compute_roofs):
    """Its points enter the range, each with the reference's memory roof above it (the weaver's
    figure_range does the same, so the alt text names the roofs drawn)."""
    ceilings = side['ceilings']
    best = max(ceilings.get(c) or 0 for c, *_ in memory_roofs)
    top = max(ceilings.get(c) or 0 for c, *_ in compute_roofs)
    for p in side['points']:
        xs.append(p['intensity'])
        rates.append(p['rate'])
        roof_above.append(min(best * p['intensity'], top))


def header(text):
    from matplotlib.lines import Line2D
    return Line2D([], [], linestyle='', label=text)


def draw(ax, side, xlim, ylim, draw_roofs, points, colours, levels=False):
    """Its roofs (under this GPU's; with the L2 and shared roofs in a levels figure), its last
    rungs joined to this GPU's markers; returns the legend's rows for it: a header naming it, a row
    per roof drawn, a row for the diamonds."""
    from matplotlib.lines import Line2D
    handles = [header('faint: %s (reference)' % side['name'])]
    handles += draw_roofs(ax, side['ceilings'], xlim, ylim, levels, faint=True)
    colour_of = {p['number']: c for p, c in zip(points, colours)}
    mine = {p['number']: p for p in points}
    for n, p in enumerate(side['points']):
        colour = colour_of.get(p['number'], '#444444')
        if p['number'] in mine:
            ours = mine[p['number']]
            ax.plot([p['intensity'], ours['intensity']], [p['rate'], ours['rate']], linestyle=(0, (1, 1.5)),
                    color=colour, linewidth=1.0, alpha=FAINT, zorder=3)
        ax.plot([p['intensity']], [p['rate']], 'D', color=colour, markerfacecolor='white', markersize=6.5,
                markeredgewidth=1.4, alpha=FAINT + 0.15, zorder=3, gid='reference-rung-%d' % (n + 1))
    if side['points']:
        handles.append(Line2D([], [], marker='D', linestyle=(0, (1, 1.5)), color='#444444', markerfacecolor='white',
                              markersize=6.5, markeredgewidth=1.4, alpha=FAINT + 0.15,
                              label="its last rungs, dotted to this GPU's"))
    return handles


def describe(side, drawn):
    """The SVG description's sentence on the reference; `drawn` names its roofs drawn."""
    return (' Drawn for %s; beside it, faint and dashed, the reference GPU %s: its measured roofs%s%s.'
            % (side['gpu'], side['name'], ' ' + drawn if drawn else '',
               ' and %d last rungs as hollow diamonds' % len(side['points']) if side['points'] else ''))
