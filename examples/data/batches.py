"""The batches of a compiled training step's --data loader
(runtime/tooling/DataLoader.h), for Python: row `row` of the batch of step
`step` starts at id batch_offset(seed, step, row, N, seq) of a file of N ids.
Standard library only; used by examples/lib/train.py and by
examples/export/export_jax_lm_train_step.py."""

MASK64 = (1 << 64) - 1


def split_mix64(x):
    """The splitmix64 finaliser (runtime/common/SplitMix64.h)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def batch_offset(seed, step, row, tokens, seq):
    """The first id of row `row` of the batch of step `step` (0-based)."""
    h = split_mix64(seed & MASK64)
    h = split_mix64(h ^ (step & MASK64))
    h = split_mix64(h ^ (row & MASK64))
    return h % (tokens - seq)
