#!/usr/bin/env python3
# ===- convert_dtype.py - an f32 export and its tensors in bf16 or f16 ----=== #
#
# usage: convert_dtype.py mlir IN.mlir OUT.mlir [--dtype bf16|f16]
#        convert_dtype.py safetensors IN.safetensors OUT.safetensors
#                         [--dtype bf16|f16]
#
# A model exported in f32 (examples/fixtures/*.mlir) as the same model in a
# 16-bit float type, and its tensor files (--inputs, --expect) to match, so
# that a 16-bit training step can be derived and checked without exporting
# the framework's model again:
#
#   mlir         every f32 of the module (element types, scalar types,
#                constants; hex literals such as -inf 0xFF800000 and the
#                resource blobs of dense_resource constants rounded to the
#                new type's bits) becomes the new type. f64 (torch-mlir's
#                LayerNorm statistics) and integers stay.
#   safetensors  every F32 tensor is rounded to the nearest value of the new
#                type (ties to even; the rounding of torch.Tensor.to), other
#                tensors are copied. A file of f32 results of PyTorch's
#                autograd becomes what a 16-bit step is compared with: the
#                f32 results rounded once (the step itself rounds at every op,
#                so it needs a looser tolerance).
#
# Pure Python (no NumPy, no PyTorch): it runs on the machine that builds the
# device bundle (scripts/device-bundle.sh).
#
# ===----------------------------------------------------------------------=== #

import argparse
import json
import re
import struct
import sys
from array import array


def f32_bits_to_bf16(bits):
    """f32 bits -> bf16 bits, round to nearest even, NaN stays NaN."""
    if (bits & 0x7FFFFFFF) > 0x7F800000:
        return ((bits >> 16) | 0x40) & 0xFFFF
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def f32_bits_to_f16(bits):
    """f32 bits -> f16 bits through Python's own IEEE half packing."""
    value = struct.unpack("<f", struct.pack("<I", bits))[0]
    try:
        return struct.unpack("<H", struct.pack("<e", value))[0]
    except OverflowError:
        return 0xFC00 if value < 0 else 0x7C00


CONVERT = {"bf16": f32_bits_to_bf16, "f16": f32_bits_to_f16}
SAFETENSORS_NAME = {"bf16": "BF16", "f16": "F16"}


def round_words(payload, to16):
    """Little-endian f32 elements -> little-endian 16-bit elements."""
    words = array("I")
    words.frombytes(payload)
    if sys.byteorder != "little":
        words.byteswap()
    halves = array("H", (to16(w) for w in words))
    if sys.byteorder != "little":
        halves.byteswap()
    return halves.tobytes()


def convert_mlir(text, dtype):
    to16 = CONVERT[dtype]

    # Resource blobs of f32 tensors (`dense_resource<NAME> : tensor<4xf32>`,
    # the elements in the file's dialect_resources after 4 bytes of
    # alignment): every element rounded, as in a safetensors file.
    f32_resources = set(re.findall(
        r"dense_resource<([^>]+)> : tensor<[0-9x?]*f32>", text))

    def resource_blob(match):
        if match.group(2) not in f32_resources:
            return match.group(0)
        raw = bytes.fromhex(match.group(3))
        return '%s%s: "0x%s%s"' % (match.group(1), match.group(2),
                                   raw[:4].hex().upper(),
                                   round_words(raw[4:], to16).hex().upper())

    text = re.sub(r'^(\s*)([A-Za-z0-9_.$-]+): "0x([0-9A-Fa-f]+)"',
                  resource_blob, text, flags=re.M)

    # Hex float literals of f32 constants: `0xFF800000 : f32` and
    # `dense<0xFF800000> : tensor<...xf32>`.
    def hex_literal(match):
        bits = to16(int(match.group(1), 16))
        return "0x%04X%s" % (bits, match.group(2))

    text = re.sub(r"0x([0-9A-Fa-f]{8})((?:>)? : (?:tensor<[0-9x?]*)?f32\b)",
                  hex_literal, text)
    # Every f32 type, as an element type (`tensor<4x8xf32>`) or alone.
    text = re.sub(r"(?<=[0-9?]x)f32\b", dtype, text)
    return re.sub(r"(?<![A-Za-z0-9_])f32\b", dtype, text)


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    return header, data[8 + length:]


def write_safetensors(path, tensors, metadata):
    """tensors: [(name, dtype name, shape, bytes)] in file order."""
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    for name, dtype, shape, payload in tensors:
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [offset, offset + len(payload)]}
        offset += len(payload)
    encoded = json.dumps(header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(encoded)))
        f.write(encoded)
        for _, _, _, payload in tensors:
            f.write(payload)


def convert_safetensors(src, dst, dtype):
    to16 = CONVERT[dtype]
    header, body = read_safetensors(src)
    metadata = header.pop("__metadata__", None)
    tensors = []
    for name, info in sorted(header.items(),
                             key=lambda item: item[1]["data_offsets"][0]):
        begin, end = info["data_offsets"]
        payload = body[begin:end]
        if info["dtype"] == "F32":
            tensors.append((name, SAFETENSORS_NAME[dtype], info["shape"],
                            round_words(payload, to16)))
        else:
            tensors.append((name, info["dtype"], info["shape"], payload))
    write_safetensors(dst, tensors, metadata)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("kind", choices=["mlir", "safetensors"])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--dtype", choices=sorted(CONVERT), default="bf16")
    args = parser.parse_args()
    if args.kind == "mlir":
        with open(args.input) as f:
            text = convert_mlir(f.read(), args.dtype)
        with open(args.output, "w") as f:
            f.write(text)
    else:
        convert_safetensors(args.input, args.output, args.dtype)


if __name__ == "__main__":
    main()
