"""A small Python program shaped like an interpreter's profile: a generator
expression that alone calls a recursive function, mutual recursion through
a builtin (sorted's key calls back into the sorting function), and methods
of a class called from the module."""


def fact(n):
    return 1 if n < 2 else n * fact(n - 1)


def weight(x):
    # called by sorted(), and sorts again: sorted -> weight -> order -> sorted
    return order(list(range(x % 4))) [0] if x % 4 else x


def order(xs):
    return sorted(xs, key=weight) or [0]


class Shop:
    def __init__(self):
        self.items = []

    def add(self, x):
        self.items.append(x)

    def total(self):
        return sum(fact(i % 12) for i in self.items)


shop = Shop()
for i in range(300):
    shop.add(i)
print(shop.total() % 1000, order(list(range(40)))[:3])
