"""The passes of a Program, one module each, run in the order program.PASSES lists."""
