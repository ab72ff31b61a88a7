"""The headless Chromium the rendered book's checks start (check_rendered.py, check_api.py)."""
import os

# Every check's Chromium: headless, no GPU, network, sync, first-run pages or scrollbars.
HEADLESS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars']


def dump_dom(browser, work, window, budget_ms, *flags):
    """The command of a Chromium that runs a page of checks in virtual time (at most budget_ms)
    and prints its DOM: its profile under work, a window of (width, height), file pages allowed
    to read each other; flags (the page's URL last) follow."""
    return ([browser] + HEADLESS +
            ['--allow-file-access-from-files', '--user-data-dir=' + os.path.join(work, 'profile'),
             '--window-size=%d,%d' % window, '--virtual-time-budget=%d' % budget_ms, '--dump-dom'] +
            list(flags))
