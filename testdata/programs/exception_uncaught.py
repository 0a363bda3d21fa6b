def get(table, key):
    return table[key]


def lookup(table, keys):
    found = []
    for k in keys:
        found.append(get(table, k))
    return found
