def report(statuses):
    bad = 0
    for i, s in enumerate(statuses):
        print(f"check {i}: {s}")
        if s != "ok":
            bad += 1
    print("bad:", bad)
    return bad
