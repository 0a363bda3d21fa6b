def grow(k):
    data = list(range(100000))
    text = "ab" * 50000
    for i in range(k):
        data.append(i)
    return len(data) + len(text)
