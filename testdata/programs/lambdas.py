def rank(fruits):
    by_len = sorted(fruits, key=lambda s: (len(s), s))
    shout = list(map(lambda s: s.upper(), by_len))
    pick = lambda xs, i: xs[i % len(xs)]
    return pick(shout, 4)
