"""The shipped models; a package so wheels carry them. letters.npz (the letter reader) is
letters_fonts.npz (scripts/train_letters.py, fonts only) fine-tuned on tiles and real cubes
by scripts/train_letters_cubes.py."""
