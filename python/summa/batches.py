"""The batches of a compiled training step's --data loader
(runtime/tooling/DataLoader.h), for Python: row `row` of the batch of step
`step` starts at id batch_offset(seed, step, row, N, seq) of a file of N ids.
Standard library only; what a reference loop in PyTorch or JAX trains on to
see the same batches as summa.train (examples/lib/train.py,
examples/export/export_jax_lm_train_step.py, python/tests)."""

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


def batch(ids, seed, step, rows, seq):
    """The token ids of the batch of step `step` (0-based) as --data draws
    it from `ids` for an input of [rows, seq]: a list of rows."""
    return [list(ids[o:o + seq]) for o in
            (batch_offset(seed, step, r, len(ids), seq) for r in range(rows))]
