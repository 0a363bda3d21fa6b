def first_pair(nums, target):
    seen = []
    for a in nums:
        for b in seen:
            if a + b == target:
                break
        else:
            seen.append(a)
            continue
        return (b, a)
    else:
        i = 0
        while i < len(seen):
            i += 2
        else:
            return None
