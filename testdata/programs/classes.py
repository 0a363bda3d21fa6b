class Account:
    def __init__(self, owner):
        self.owner = owner
        self.balance = 0

    def apply(self, amount):
        if self.balance + amount < 0:
            return False
        self.balance += amount
        return True

    def __repr__(self):
        return f"Account({self.owner!r}, {self.balance})"


def run_account(moves):
    acct = Account("ada")
    rejected = 0
    for m in moves:
        if not acct.apply(m):
            rejected += 1
    return acct, rejected
