def discount(price, rate):
    cut = price * rate
    return price - cut


def line_price(qty, unit, rate):
    gross = qty * unit
    net = discount(gross, rate)
    return round(net, 2)


def total_price(quantities, rate):
    total = 0
    for i, qty in enumerate(quantities):
        total += line_price(qty, i + 1.5, rate)
    return total
