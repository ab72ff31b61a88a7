"""The front page (index.html): the course in a paragraph, its outcomes, its modules with their
lessons, the machine and the date of the numbers in words, a table of headline results, then the
appendices and the book's other outputs.

The words come from book/front.md. The lessons come from the chapters the book has (book/chapters.txt,
through the weaver's book.json): a chapter whose id starts with "N." is a lesson of module N; the
others (A, B, C) are appendices. The machine and the date come from
book/measurements/<gpu>/machine.json; the headline results from the chapters' records there:
for each ladder of a chapter (results named <src>/[<ladder>_]v<N>_<name>@<args>), its last rung
(the highest N) at the largest size where a peer (<src>/peer_<what>) was measured, against the
strongest such peer: the fastest of those measured for the same arguments in the same run that do
the same work (each of `bytes` and `flops` both record is equal, so 3.2's FP32 ladder meets cuBLAS's
SGEMM, not its BF16 GEMM), or, where no peer does the same work (a copy standing in for a fused
kernel's bytes), the first one measured; nothing in the table is typed. A size is the product of the key's arguments with a 0 read as 1, so a flag
(4.3's causal 0 or 1) never makes a problem smaller; of two rungs of one size, the one with fewer
flags set (arguments equal to 1) is shown: the unmasked attention, not the causal one."""
import datetime
import glob
import html
import json
import os
import re

import told

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
WORDS = os.path.join(BOOK, 'front.md')
RUNG = re.compile(r'^[^/]+/(?:(?P<ladder>[A-Za-z0-9]+)_)?v(?P<n>\d+)_[^@]*@(?P<args>.+)$')
PEER = re.compile(r'^[^/]+/peer_[^@]*@(?P<args>.+)$')


class FrontError(Exception):
    pass


# Words for one medium: [[the web page's||a book's (the EPUB, the printed view)]], where the web page
# speaks of what only a browser does (a number's key shown on hover).
MEDIUM = re.compile(r'\[\[(.*?)\|\|(.*?)\]\]', re.S)


def read_words(path=WORDS, medium='web'):
    """{'intro': [paragraph], 'outcomes': [item], 'modules': {n: (name, paragraph)}}, in the words
    of medium: 'web' (the front page) or 'book' (the EPUB's front matter)."""
    with open(path, encoding='utf-8') as f:
        text = re.sub(r'<!--.*?-->', '', f.read(), flags=re.S)
    text = MEDIUM.sub(lambda m: m.group(1) if medium == 'web' else m.group(2), text)
    words = {'intro': [], 'outcomes': [], 'modules': {}}
    for head, body in re.findall(r'^## ([^\n]+)\n(.*?)(?=^## |\Z)', text, re.S | re.M):
        paragraphs = [' '.join(p.split()) for p in re.split(r'\n\s*\n', body.strip()) if p.strip()]
        module = re.match(r'module (\d+): (.+)$', head.strip())
        if head.strip() == 'intro':
            words['intro'] = paragraphs
        elif head.strip() == 'outcomes':
            words['outcomes'] = [' '.join(i.split()) for i in re.split(r'^\d+\.\s+', body.strip(), flags=re.M) if i.strip()]
        elif module:
            words['modules'][int(module.group(1))] = (module.group(2).strip(), ' '.join(paragraphs))
        else:
            raise FrontError('%s: unknown section "## %s"' % (path, head.strip()))
    if not words['intro'] or not words['outcomes'] or not words['modules']:
        raise FrontError('%s: needs the sections intro, outcomes and module N: ...' % path)
    return words


def date_in_words(stamp):
    """2026-11-29T16:13:17Z -> 2026-11-29: the book writes a date one way, as the dated box and the
    chapters' lines do (the day; the full stamp in a tooltip where there is room)."""
    try:
        day = datetime.datetime.strptime(stamp[:10], '%Y-%m-%d')
    except (TypeError, ValueError):
        return None
    return day.strftime('%Y-%m-%d')


def article(name):
    """'an' before a name read with a vowel sound (an NVIDIA H200, an AMD ..., a GeForce)."""
    first = name[:1]
    if first.isupper() and (len(name) > 1 and name[1:2].isupper()):
        return 'an' if first in 'AEFHILMNORSX' else 'a'
    return 'an' if first.lower() in 'aeiou' else 'a'


def seconds(value):
    """A time with its unit, three significant figures."""
    for scale, unit in ((1, 's'), (1e-3, 'ms'), (1e-6, 'µs'), (1e-9, 'ns')):
        if value >= scale or unit == 'ns':
            return '%.3g %s' % (value / scale, unit)


def size(args):
    """The problem's size: the product of its arguments, a flag of 0 counted as 1."""
    product = 1
    for part in args.split('x'):
        product *= max(int(part), 1) if part.isdigit() else 1
    return product


def flags_set(args):
    """Arguments equal to 1: the tie-break between rungs of one size (fewer first)."""
    return sum(1 for part in args.split('x') if part == '1')


def headlines(record):
    """[(ladder, rung key, peer key)] of one chapter's record, in the record's order."""
    results = record.get('results') or {}
    peers = [(k, PEER.match(k).group('args')) for k in results if PEER.match(k)]
    ladders = {}
    for key in results:
        m = RUNG.match(key)
        if m:
            ladders.setdefault(m.group('ladder') or '', []).append((int(m.group('n')), m.group('args'), key))
    def median(key, quantity='time'):
        return ((results[key] or {}).get(quantity) or {}).get('median')

    def same_work(peer, rung):
        """Each of bytes and flops that both record is equal (to rounding: a bias vector differs)."""
        pairs = [(median(peer, q), median(rung, q)) for q in ('bytes', 'flops')]
        return all(abs(p - r) <= 1e-9 * abs(r) for p, r in pairs if p is not None and r is not None)

    rows = []
    for ladder, rungs in ladders.items():
        last = max(n for n, _, _ in rungs)
        ordered = sorted((r for r in rungs if r[0] == last), key=lambda r: (-size(r[1]), flags_set(r[1])))
        for n, args, key in ordered:
            timed = [p for p, a in peers if a == args and median(p)]   # the same problem only
            if timed and median(key):
                alike = [p for p in timed if same_work(p, key)]
                rows.append((ladder, key, min(alike, key=median) if alike else timed[0]))
                break
    return rows


# The roofs a share is taken of, as the weaver names them (tangle/weaver/roofline_figure.cpp).
ROOF_HTML = {'read_bandwidth': 'B<sub>read</sub>', 'copy_bandwidth': 'B<sub>copy</sub>',
             'fp32_fma_rate': 'F<sub>fp32</sub>', 'bf16_tensor_rate': 'F<sub>bf16</sub>'}


def binding_roof(result, ceilings):
    """(share, roof) of a result against the roof that binds it, as the weaver's rooflines place a
    kernel: its FLOPs per DRAM byte (counted by ncu where the record has dram_bytes, else the
    model's bytes), under the lower of the memory roof (the larger of B_read and B_copy) times that
    intensity and the compute roof (F_bf16 where ncu counted tensor work, or where nothing was
    counted and the kernel ran faster than F_fp32; else F_fp32). A result without FLOPs is a stream:
    its bytes per second over the memory roof. None where the record lacks what it needs."""
    def value(name, where):
        return ((where.get(name) or {}) if isinstance(where.get(name), dict) else {}).get('median')
    time, flops = value('time', result), value('flops', result)
    moved = value('dram_bytes', result) or value('bytes', result)
    read, copy = value('read_bandwidth', ceilings), value('copy_bandwidth', ceilings)
    memory = 'read_bandwidth' if read and (not copy or read > copy) else 'copy_bandwidth'
    bandwidth = read if memory == 'read_bandwidth' else copy
    if not time or not moved or not bandwidth:
        return None
    if not flops:
        return moved / time / bandwidth, memory
    rate = flops / time
    tensor = value('tensor_flops', result)
    fp32 = value('fp32_fma_rate', ceilings)
    uses_tensor = tensor > 0 if tensor is not None else bool(fp32) and rate > fp32
    compute = 'bf16_tensor_rate' if uses_tensor and value('bf16_tensor_rate', ceilings) else 'fp32_fma_rate'
    flat, slope = value(compute, ceilings), bandwidth * flops / moved
    if not flat or slope < flat:
        return rate / slope, memory
    return rate / flat, compute


def key_html(key):
    """A record's key, escaped, that may break after its / and its @ (and nowhere else where it fits)."""
    return html.escape(key).replace('/', '/<wbr>').replace('@', '@<wbr>')


def results_table(chapters, records_dir, page_name):
    rows = []
    try:
        with open(os.path.join(records_dir, 'machine.json'), encoding='utf-8') as f:
            ceilings = json.load(f).get('ceilings') or {}
    except (OSError, ValueError):
        ceilings = {}
    for chapter in chapters:
        path = os.path.join(records_dir, chapter['id'] + '.json')
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8') as f:
            record = json.load(f)
        for ladder, rung, peer in headlines(record):
            r, p = record['results'][rung]['time']['median'], record['results'][peer]['time']['median']
            bound = binding_roof(record['results'][rung], ceilings)
            share = '%.0f%% of %s' % (100 * bound[0], ROOF_HTML[bound[1]]) if bound else '–'
            # each cell names its column (data-label): a phone shows each row as a card (book/style.css)
            rows.append('<tr><td data-label="chapter"><a href="%s">%s</a></td><td class="num" data-label="speed vs peer">'
                        '%.2f×</td><td class="num" data-label="share of its roof">%s</td>'
                        '<td data-label="last rung"><code>%s</code></td><td class="num" data-label="its time">'
                        '%s</td><td data-label="peer"><code>%s</code></td><td class="num" data-label="peer time">%s</td>'
                        '<td class="num" data-label="measured">%s</td></tr>'
                        % (page_name(chapter), html.escape(chapter['id']), p / r, share, key_html(rung), seconds(r),
                           key_html(peer), seconds(p), date_in_words(record.get('date', '')) or ''))
    if not rows:
        return ''
    # speed vs peer, the point of the table, right after the chapter: it shows however narrow the frame
    return ('<div class="table-scroll"><table class="headlines">\n<thead><tr><th>chapter</th><th>speed vs peer</th>'
            '<th>share of its roof</th><th>last rung</th><th>its time</th><th>peer</th><th>peer time</th><th>measured</th></tr></thead>\n'
            '<tbody>\n%s\n</tbody></table></div>\n'
            '<p class="note">Each ladder\'s last rung against the strongest peer measured in the same '
            'run: the fastest library kernel timed on the same problem doing the same work (the same '
            'bytes and FLOPs), or where none does, the reference the chapter measured (a copy); at '
            'the largest size both ran. Speed vs peer is the peer\'s time over the rung\'s (above '
            '1.00×: faster than the peer). Share of its roof is the rung\'s rate over the roof that binds it '
            'on this GPU, placed as the chapters\' rooflines place a kernel: its FLOPs per DRAM byte (counted, '
            'or the model\'s) under the lower of the memory roof and the compute roof, or for a kernel '
            'without FLOPs its bytes per second over the memory roof. The roofs are the rates of appendix A\'s '
            'measuring kernels, not the hardware\'s, so a rung can pass one: above 100%%, it ran faster than the '
            'kernel that measured it. Times are medians from the records.</p>'
            % '\n'.join(rows))


def machine_line(records_dir):
    path = os.path.join(records_dir, 'machine.json')
    try:
        with open(path, encoding='utf-8') as f:
            machine = json.load(f)
    except (OSError, ValueError):
        return '<p class="machine">No numbers yet: nothing has been measured on a GPU (<code>make measure</code>).</p>'
    gpu = machine.get('gpu') or (machine.get('context') or {}).get('gpu') or 'an unnamed GPU'
    when = date_in_words(machine.get('date', ''))
    return ('<p class="machine">Every number in this book was measured on %s %s%s, by the code in '
            'the book; a chapter whose code changed since says so.</p>'
            % (article(gpu), html.escape(gpu), ' on ' + when if when else ''))


def lesson_item(c, page_name):
    stale = ' <strong class="stale">stale: the code changed since its numbers</strong>' if c['stale'] else ''
    return '<li><span class="id">%s</span><a href="%s">%s</a>%s%s</li>' % (
        html.escape(c['id']), page_name(c), html.escape(c['title']), stale, told.lesson_mark(c))


def module_lists(words, chapters, page_name):
    parts = []
    modules = dict(words['modules'])
    lessons = {}
    for c in chapters:
        head = c['id'].split('.')[0]
        if head.isdigit() and '.' in c['id']:
            lessons.setdefault(int(head), []).append(c)
    for n in sorted(set(modules) | set(lessons)):
        name, text = modules.get(n, ('Module %d' % n, ''))
        items = ''.join(lesson_item(c, page_name) for c in lessons.get(n, []))
        parts.append('<section class="module"><h3 id="module-%d">Module %d: %s</h3>\n<p>%s</p>\n%s</section>'
                     % (n, n, html.escape(name), html.escape(text),
                        '<ol class="chapters">%s</ol>' % items if items else
                        '<p class="note">Its lessons are being written.</p>'))
    return '\n'.join(parts)


def body(book_title, chapters, extras, records_dir, page_name):
    words = read_words()
    appendices = [c for c in chapters if not ('.' in c['id'] and c['id'].split('.')[0].isdigit())]
    parts = ['<h1 class="title">%s</h1>' % html.escape(book_title)]
    parts.append(told.banner(chapters, page_name))   # where the book stands on its GPU, first
    parts += ['<p class="lead">%s</p>' % html.escape(p) for p in words['intro']]
    parts.append(machine_line(records_dir))
    parts += ['<h2 id="outcomes">What you will be able to do</h2>', '<ol class="outcomes">',
              ''.join('<li>%s</li>' % html.escape(o) for o in words['outcomes']), '</ol>']
    parts += ['<h2 id="modules">The modules and their lessons</h2>', module_lists(words, chapters, page_name)]
    table = results_table(chapters, records_dir, page_name)
    if table:
        parts += ['<h2 id="results">Headline results</h2>', table]
    if appendices:
        parts += ['<h2 id="appendices">Appendices</h2>', '<ol class="chapters">']
        parts += [lesson_item(c, page_name) for c in appendices]
        parts.append('</ol>')
    if extras:
        parts += ['<h2 id="also">Also in this book</h2>', '<ul>']
        parts += ['<li><a href="%s">%s</a></li>' % (html.escape(h), html.escape(l)) for h, l in extras]
        parts.append('</ul>')
    return '\n'.join(parts) + '\n'


def inputs(records_dir):
    """What the front page reads besides the chapters: for its digest."""
    files = [WORDS] + sorted(glob.glob(os.path.join(records_dir, '*.json')))
    out = []
    for path in files:
        with open(path, 'rb') as f:
            out.append(f.read())
    return out
