def word_stats(text):
    words = text.split()
    lengths = [len(w) for w in words]
    counts = {w: words.count(w) for w in words}
    longest = max(w for w in words if len(w) == max(lengths))
    return lengths, counts, longest
