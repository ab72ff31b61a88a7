"""console_table.py: the rows of Google Benchmark's console table as the book's benchmark binaries
print it (a header line starting "Benchmark", then one line per run: name, time, unit, CPU time,
unit, iterations, then one value per counter, SI-suffixed). Used by the experiments' summaries."""
SUFFIX = {'k': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12, 'm': 1e-3, 'u': 1e-6, 'n': 1e-9}
TIME_UNIT = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}


def number(token):
    """9.8G -> 9.8e9, 3.6u -> 3.6e-6, 12 -> 12.0; None for what is not a number (-nan%, %)."""
    token = token.rstrip('%')
    try:
        return float(token[:-1]) * SUFFIX[token[-1]] if token and token[-1] in SUFFIX else float(token)
    except ValueError:
        return None


def rows(path):
    """{run name: {'time': seconds, counter: value}} of every table in the file."""
    out, header = {}, None
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            words = line.split()
            if words[:1] == ['Benchmark']:
                header = words[4:]  # after Benchmark, Time, CPU, Iterations
                continue
            if header is None or len(words) < 6 or words[2] not in TIME_UNIT:
                continue
            run = {'time': float(words[1]) * TIME_UNIT[words[2]]}
            run.update({name: number(value) for name, value in zip(header, words[6:])})
            out[words[0]] = run
    return out
