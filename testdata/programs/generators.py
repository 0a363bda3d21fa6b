def evens():
    n = 0
    while True:
        yield n
        n += 2


def take_evens(k):
    out = []
    for v in evens():
        if len(out) == k:
            break
        out.append(v)
    return out
