def count(s, t):
    n = 0
    for c in s:
        if c == t:
            n += 1
    return n
