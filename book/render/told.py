"""Where the book stands on the GPU it was woven for, told at the front page and at each chapter's
opening: how many claims hold there, links to those that do not and to those that cannot be
checked (a value never measured, or not run, on that GPU: counted apart), and the chapters whose
records are stale. The weaver counts (book.json: each chapter's "claims", the book's GPU and its
reference); the GPUs page holds the list itself (#does-not-hold, written by the weaver).

Told when the book is woven for a GPU other than the reference, or where a claim does not hold, a
claim cannot be checked or a record is stale; a reference book where all holds is unchanged."""
import html

LIST = 'gpus.html#does-not-hold'


def _counted(n, one, many):
    return '%d %s' % (n, one if n == 1 else many)


def _links(claims, href=''):
    return ', '.join('<a href="%s#%s">line %d</a>' % (html.escape(href), html.escape(c['anchor']), c['line'])
                     for c in claims)


def _why(unchecked):
    if all(c.get('why') == 'not measured' for c in unchecked):
        return 'a value %s rests on was never measured there' % ('it' if len(unchecked) == 1 else 'each')
    return 'a value %s rests on was never measured, or not run, there' % ('it' if len(unchecked) == 1 else 'each')


def _holding(hold, total, whose):
    if hold == total:
        return 'its one claim holds' if total == 1 and whose == 'this chapter' else \
            'all %d of %s claims hold' % (total, whose + "'s")
    return '%d of %s %d claims hold' % (hold, whose + "'s", total)


def _told(book, chapters):
    """Whether anything is to be told: another GPU than the reference, or something not holding."""
    if not book.get('woven_is_reference', True):
        return True
    return any(c['stale'] or (c.get('claims') or {}).get('broken') or (c.get('claims') or {}).get('unchecked')
               for c in chapters)


def _on(book, why=True):
    """"On the NVIDIA H200 (the reference GPU ... is the NVIDIA H100 80GB HBM3)": the reference
    named where the book is woven for another GPU; why it matters said on the front page only."""
    gpu = html.escape(book.get('gpu') or 'this GPU')
    ref = book.get('reference_gpu')
    if not book.get('woven_is_reference', True) and ref:
        return 'On the %s (the reference GPU%s is the %s)' % (
            gpu, ', whose records the prose was written from,' if why else '', html.escape(ref))
    return 'On the %s' % gpu


def opening(chapter):
    """The chapter's line under its title (HTML), or '' when nothing is to be told."""
    book, claims = chapter.get('book') or {}, chapter.get('claims') or {}
    total = claims.get('total', 0)
    if not total or not _told(book, [chapter]):
        return ''
    broken, unchecked = claims.get('broken') or [], claims.get('unchecked') or []
    parts = [_on(book, why=False) + ', ' + _holding(claims.get('hold', 0), total, 'this chapter')]
    if broken:
        parts.append('<strong class="told-broken">%s not hold</strong>: %s'
                     % (_counted(len(broken), 'does', 'do'), _links(broken)))
    if unchecked:
        parts.append('%s checked, %s: %s' % (_counted(len(unchecked), 'cannot be', 'cannot be'),
                                             _why(unchecked), _links(unchecked)))
    text = '; '.join(parts) + '.'
    if (broken or unchecked or chapter['stale']) and book.get('list'):
        text += ' <a href="%s">Where the book does not hold</a>.' % book['list']
    return text


def banner(chapters, page_name):
    """The front page's note under the machine line (HTML), or ''."""
    lessons = [c for c in chapters if c.get('claims') is not None]   # the weaver counted their claims
    if not lessons:
        return ''
    book = lessons[0].get('book') or {}
    if not _told(book, chapters):
        return ''
    total = sum(c['claims'].get('total', 0) for c in lessons)
    hold = sum(c['claims'].get('hold', 0) for c in lessons)
    broken = sum(len(c['claims'].get('broken') or []) for c in lessons)
    unchecked = [u for c in lessons for u in c['claims'].get('unchecked') or []]
    text = _on(book) + ', <strong>' + _holding(hold, total, "the book") + '</strong>'
    text += '; ' + ('none is broken' if not broken else
                    '<strong class="told-broken">%s not hold</strong>' % _counted(broken, 'does', 'do'))
    if unchecked:
        text += ', and %s checked: %s' % (_counted(len(unchecked), 'cannot be', 'cannot be'), _why(unchecked))
    text += '.'
    stale = [c for c in chapters if c['stale']]
    if stale:
        text += ' The records of %s are stale, measured with code that has changed since: %s.' % (
            _counted(len(stale), 'chapter', 'chapters'),
            ', '.join('<a href="%s">%s</a>' % (page_name(c), html.escape(c['id'])) for c in stale))
    if book.get('list'):
        text += ' <a href="%s">Where the book does not hold</a> · <a href="gpus.html">the GPUs side by side</a>.' % LIST
    return '<p class="told" role="note">%s</p>' % text


def lesson_mark(chapter):
    """A lesson's mark in the front page's lists: its claims that do not hold or cannot be checked."""
    claims = chapter.get('claims') or {}
    broken, unchecked = len(claims.get('broken') or []), len(claims.get('unchecked') or [])
    if not broken and not unchecked:
        return ''
    said = []
    if broken:
        said.append('%d of %d claims %s not hold' % (broken, claims.get('total', 0), 'does' if broken == 1 else 'do'))
    if unchecked:
        said.append('%s checked' % _counted(unchecked, 'claim cannot be', 'claims cannot be'))
    return ' <span class="told-mark">%s</span>' % html.escape('; '.join(said))
