def ratio(a, b):
    return a / b


def safe_ratios(divisors, num):
    results = []
    for d in divisors:
        try:
            r = ratio(num, d)
        except ZeroDivisionError as e:
            r = None
        results.append(r)
    return results
