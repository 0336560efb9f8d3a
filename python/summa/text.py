"""Text to token ids for training, with a tokenizer made here from the text
(Hugging Face `tokenizers`, nothing downloaded) that `save_pretrained`
writes beside the model."""

from ._tools import SummaError

EOS = "<|endoftext|>"


def train_tokenizer(text_file, vocab_size, kind="bpe"):
    """A byte-level tokenizer for `text_file` as a transformers
    PreTrainedTokenizerFast: "bpe" learns merges up to `vocab_size` ids
    (GPT-2's scheme), "bytes" keeps the 256 bytes and no merges. Either has
    the special token <|endoftext|> (id 256 for bytes)."""
    try:
        from tokenizers import ByteLevelBPETokenizer
        from transformers import PreTrainedTokenizerFast
    except ImportError as e:
        raise SummaError("summa.train_tokenizer needs tokenizers and transformers") from e
    if kind not in ("bpe", "bytes"):
        raise SummaError(f"summa.train_tokenizer: kind={kind!r}: expected bpe or bytes")
    size = 257 if kind == "bytes" else vocab_size
    if vocab_size < 257:
        raise SummaError(f"summa.train_tokenizer: a vocabulary of {vocab_size} is smaller than "
                         "the 256 bytes and <|endoftext|> a byte-level tokenizer needs")
    with open(text_file, encoding="utf-8", errors="replace") as f:
        text = f.read()
    tok = ByteLevelBPETokenizer()
    tok.train_from_iterator([text], vocab_size=size, min_frequency=2, special_tokens=[EOS],
                            show_progress=False)
    return PreTrainedTokenizerFast(tokenizer_object=tok._tokenizer, eos_token=EOS,
                                   bos_token=EOS, unk_token=EOS)


def tokenize(text_file, tokenizer, held_out=0.1):
    """(training ids, held-out ids): the text's ids, the last `held_out`
    fraction apart."""
    with open(text_file, encoding="utf-8", errors="replace") as f:
        ids = tokenizer(f.read())["input_ids"]
    cut = len(ids) - int(len(ids) * held_out)
    return ids[:cut], ids[cut:]
