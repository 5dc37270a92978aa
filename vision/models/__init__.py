"""The shipped letter model (letters.npz), made by scripts/train_letters.py; a package so wheels carry it."""
