def count(s, t):
    n = 0
    for c in s:
        if c == t:
            n += 1
    return n

# A whole script: <module> (line 16) calls main (line 11), which calls count.
def main():
    word = "berry"
    found = count(word, "r")
    print(word, found)
    return found


main()
