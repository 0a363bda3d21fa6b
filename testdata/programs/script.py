# A whole script: no entry; the module itself is traced.
def square(x):
    return x * x


values = [1, 2, 3]
total = 0
for v in values:
    total += square(v)
print("total", total)
