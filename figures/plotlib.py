"""The half every figures/plots/*.py script shares (this file is not a plot script: the renderer runs
only figures/plots/*.py). A script imports it through a sys.path line relative to its own location,
keeps only what it reads from its chapter's record and what it draws, and ends with

    sys.exit(plotlib.main(sys.argv[1:], __doc__, '1.2', 'waves-staircase.svg', read, draw))

main(argv, doc, chapter, target, read, draw):
  - argv must be RECORDS_DIR OUT_DIR, else it prints the usage line (the second paragraph of the
    script's docstring) and returns 2;
  - it reads RECORDS_DIR/<chapter>.json; when present, read(record, RECORDS_DIR) returns what draw
    needs, raising ValueError (or KeyError, TypeError, OSError) with a sentence on a bad record: that
    is printed after the file's path and main returns 2 (an error raised as InputError names its own
    file, e.g. machine.json);
  - only then is matplotlib imported (Agg, a fixed SVG hash salt); draw(plt, record, what read
    returned) returns the figure, or, without the record, a panel says the chapter is not measured on
    this GPU yet, so the page's link is never broken;
  - the SVG is written to OUT_DIR/<target> through a temporary file and a rename, without a date:
    identical input, identical bytes. main returns 0.
Helpers for read and draw: results_of (the results keyed name@N or name@NxM), ceilings (machine.json's
medians), finish (the title with the GPU and the date, a tight layout).

Every figure is drawn for a phone: WIDTH inches wide (the page shows it about that wide on a 390 px
screen and a little larger on a desktop), panels stacked, and no text under MIN_POINTS, so that on
the phone no letter is under 9 CSS px (book/check-rendered.sh measures it). pyplot() sets the
sizes; a script names a size only to go above them."""
import json
import os
import re
import sys

SALT = 'kernels-and-the-machine'
WIDTH = 4.0        # inches: a figure is drawn at a phone's width, as the rooflines are
MIN_POINTS = 8.5   # the smallest text: 8.5 pt over 4 in shown ~345 px wide is ~10 px
SIZES = {'font.size': 9, 'axes.titlesize': 9.5, 'axes.labelsize': 9, 'xtick.labelsize': MIN_POINTS,
         'ytick.labelsize': MIN_POINTS, 'legend.fontsize': MIN_POINTS, 'figure.titlesize': 9.5}
INPUT_ERRORS = (OSError, ValueError, KeyError, TypeError)


class InputError(ValueError):
    """A bad input file other than the chapter's record: the message names it."""

    def __init__(self, path, problem):
        super().__init__(problem)
        self.path = path


def read_json(path):
    with open(path) as f:
        return json.load(f)


def ceilings(records):
    """RECORDS_DIR/machine.json's ceilings (name -> median), or None when there is no machine.json;
    an unreadable one raises InputError naming it."""
    path = os.path.join(records, 'machine.json')
    if not os.path.exists(path):
        return None
    try:
        data = read_json(path)
        return {name: c['median'] for name, c in data.get('ceilings', {}).items()
                if isinstance(c, dict) and 'median' in c}
    except (AttributeError,) + INPUT_ERRORS as e:
        raise InputError(path, e)


def results_of(results, name, numbers=1):
    """(key, [its numbers], quantities) for every result keyed name@N (numbers=1), name@NxM (2), ..."""
    pattern = re.escape(name) + '@' + 'x'.join([r'(\d+)'] * numbers)
    for key, quantities in results.items():
        match = re.fullmatch(pattern, key)
        if match:
            yield key, [int(n) for n in match.groups()], quantities


def pyplot():
    """matplotlib.pyplot, set up for byte-identical SVG (Agg, a fixed hash salt)."""
    import matplotlib
    matplotlib.use('Agg')
    matplotlib.rcParams['svg.hashsalt'] = SALT
    matplotlib.rcParams.update(SIZES)
    import matplotlib.pyplot as plt
    return plt


def measured_results(data):
    """The record's results that carry numbers: a result skipped or failed on this GPU (a dict
    with a 'status', tangle/measure/outcomes.py) is left out, so a figure draws what was measured."""
    results = data.get('results')
    if not isinstance(results, dict):
        return {}
    return {key: value for key, value in results.items()
            if isinstance(value, dict) and 'status' not in value}


def skipped_results(data):
    """How many of the record's results were skipped or failed on its GPU."""
    results = data.get('results')
    if not isinstance(results, dict):
        return 0
    return sum(1 for value in results.values() if isinstance(value, dict) and 'status' in value)


def not_measured(plt, chapter):
    fig, ax = plt.subplots(figsize=(WIDTH, 1.6))
    ax.axis('off')
    ax.text(0.5, 0.5, 'Chapter %s is not measured on this GPU yet:\nrun make measure CHAPTER=%s' % (chapter, chapter),
            ha='center', va='center')
    return fig


def finish(fig, record, title=None):
    """Titles fig with `title` over a line with the record's GPU and its date (one line of both
    would not fit the phone's width), lays it out tightly and returns it."""
    about = ', '.join([record.get('gpu', '?'), record.get('date', '?')[:10]])
    fig.suptitle(title + '\n' + about if title else about)
    fig.tight_layout()
    return fig


def legend_below(ax, label_lines=1, **options):
    """The axes' legend under its x label (label_lines lines of it), where on a phone-wide panel
    it covers no data; tight_layout makes room for it."""
    return ax.legend(loc='upper center', bbox_to_anchor=(0.5, 0), borderaxespad=2.3 + 1.3 * label_lines,
                     frameon=False, **options)


def save(fig, target):
    """Writes fig to target as SVG, with no date, atomically (a temporary file, then a rename)."""
    temporary = target + '.tmp'
    fig.savefig(temporary, format='svg', metadata={'Date': None})
    os.replace(temporary, target)


def main_diagram(argv, doc, target, draw):
    """The main of a figure drawn from no record (a diagram of an idea): the same arguments as a
    measured figure's, the records' folder unused."""
    if len(argv) != 2:
        print(doc.split('\n\n')[1].strip(), file=sys.stderr)
        return 2
    plt = pyplot()
    os.makedirs(argv[1], exist_ok=True)
    save(draw(plt), os.path.join(argv[1], target))
    return 0


def main(argv, doc, chapter, target, read, draw):
    if len(argv) != 2:
        print(doc.split('\n\n')[1].strip(), file=sys.stderr)
        return 2
    records, out_dir = argv
    path = os.path.join(records, chapter + '.json')
    data = None
    skipped = 0
    if os.path.exists(path):
        try:
            data = read_json(path)
            if not isinstance(data, dict):
                raise ValueError('not a JSON object')
            skipped = skipped_results(data)
            what = read(data, records)
        except InputError as e:
            print('%s: %s' % (e.path, e), file=sys.stderr)
            return 2
        except INPUT_ERRORS as e:
            if not skipped:  # a record measured in full that lacks what the figure needs: a bug
                print('%s: %s' % (path, e), file=sys.stderr)
                return 2
            # the figure needs a result this GPU skipped or failed (a rung that does not fit it, an
            # architecture's own chapter): the book still renders, with the figure saying so
            print('%s: %s; %d result(s) were skipped or failed on this GPU, so the figure says it is '
                  'not measured here' % (path, e, skipped), file=sys.stderr)
            data = None
    plt = pyplot()
    os.makedirs(out_dir, exist_ok=True)
    fig = not_measured(plt, chapter) if data is None else draw(plt, data, what)
    save(fig, os.path.join(out_dir, target))
    return 0
