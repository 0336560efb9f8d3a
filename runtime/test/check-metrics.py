#!/usr/bin/env python3
"""Reads what the driver's --metrics and --tensorboard wrote, and checks it.

usage:
  check-metrics.py metrics FILE [--steps N] [--same-as OTHER]
      every line of FILE is a JSON object with the documented fields and
      types, the steps are 1..N in order (N: --steps, else the line count);
      with --same-as, the loss of every step equals OTHER's. Prints
      "metrics: N steps, fields ok" and the first and last loss.
  check-metrics.py events DIR [--same-as FILE]
      decodes the event files of DIR in name order with the standard library
      only (record framing, both masked CRC-32Cs, the Event protobuf), checks
      that no step is there twice (a resumed run cuts what the killed one
      wrote after its checkpoint), and prints "events: T tags, steps A..B"
      and "tag <name> <count> points";
      with --same-as, each step's loss equals the --metrics FILE's (as f32).
  check-metrics.py tensorboard DIR [--steps N]
      the same directory through TensorBoard's own reader (EventAccumulator)
      and tbparse: both list the loss and the step time for steps 1..N.
      Needs the tensorboard and tbparse packages: without them it fails.
"""
import json
import math
import os
import struct
import sys

FIELDS = {
    "step": int, "loss": (float, type(None)), "lr": (float, type(None)),
    "grad_norm": (float, type(None)), "tokens": (int, type(None)),
    "tokens_per_s": (float, type(None)), "ms_per_step": float,
    "comm_bytes": dict, "peak_rss_bytes": int, "wall_time": float,
}
KINDS = ("broadcast", "reduce", "all_reduce", "all_gather", "reduce_scatter")


def fail(message):
    print(f"check-metrics: FAILED: {message}")
    sys.exit(1)


def option(args, name, default=None):
    if name in args:
        i = args.index(name)
        return args[i + 1]
    return default


def read_metrics(path):
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            try:
                row = json.loads(line)
            except ValueError as error:
                fail(f"{path}:{number} is not JSON: {error}")
            rows.append(row)
    return rows


def check_metrics(args):
    path = args[0]
    rows = read_metrics(path)
    steps = int(option(args, "--steps", len(rows)))
    if [r.get("step") for r in rows] != list(range(1, steps + 1)):
        fail(f"steps {[r.get('step') for r in rows]}, expected 1..{steps}")
    for row in rows:
        if list(row) != list(FIELDS):
            fail(f"step {row['step']}: keys {list(row)}, expected "
                 f"{list(FIELDS)}")
        for key, kind in FIELDS.items():
            value = row[key]
            # JSON writes 3.0 as 3.0 but a float field may print as an int.
            if kind is float and isinstance(value, int):
                continue
            if isinstance(kind, tuple) and float in kind and \
                    isinstance(value, int):
                continue
            if not isinstance(value, kind) or isinstance(value, bool):
                fail(f"step {row['step']}: {key} = {value!r}")
        if sorted(row["comm_bytes"]) != sorted(KINDS) or not all(
                isinstance(v, int) and v >= 0
                for v in row["comm_bytes"].values()):
            fail(f"step {row['step']}: comm_bytes {row['comm_bytes']}")
        if row["peak_rss_bytes"] <= 0 or row["ms_per_step"] < 0:
            fail(f"step {row['step']}: peak_rss_bytes or ms_per_step")
    print(f"metrics: {len(rows)} steps, fields ok")
    if rows:
        print(f"metrics: loss {rows[0]['loss']} -> {rows[-1]['loss']}")
        print(f"metrics: comm_bytes {rows[-1]['comm_bytes']}")
    other = option(args, "--same-as")
    if other:
        theirs = {r["step"]: r["loss"] for r in read_metrics(other)}
        for row in rows:
            if theirs.get(row["step"]) != row["loss"]:
                fail(f"step {row['step']}: loss {row['loss']}, {other} has "
                     f"{theirs.get(row['step'])}")
        print(f"metrics: the loss of every step equals "
              f"{os.path.basename(other)}'s")


# --- TFRecord and the Event protobuf, by hand ---------------------------------

def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        if at + 12 > len(data):
            fail(f"{path}: a record header is cut at byte {at}")
        header = data[at:at + 8]
        length, = struct.unpack("<Q", header)
        crc, = struct.unpack("<I", data[at + 8:at + 12])
        if crc != masked(crc32c(header)):
            fail(f"{path}: bad length CRC at byte {at}")
        body = data[at + 12:at + 12 + length]
        crc, = struct.unpack("<I", data[at + 12 + length:at + 16 + length])
        if len(body) != length or crc != masked(crc32c(body)):
            fail(f"{path}: bad data CRC at byte {at}")
        yield body
        at += 16 + length


def fields(message):
    """(field number, wire type, value) of a protobuf message."""
    at = 0

    def varint():
        nonlocal at
        value, shift = 0, 0
        while True:
            byte = message[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value
    while at < len(message):
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            yield number, wire, varint()
        elif wire == 1:
            yield number, wire, message[at:at + 8]
            at += 8
        elif wire == 2:
            length = varint()
            yield number, wire, message[at:at + length]
            at += length
        elif wire == 5:
            yield number, wire, message[at:at + 4]
            at += 4
        else:
            fail(f"wire type {wire} in an Event")


def decode_event(body):
    event = {"step": 0, "scalars": {}}
    for number, wire, value in fields(body):
        if number == 1 and wire == 1:
            event["wall_time"], = struct.unpack("<d", value)
        elif number == 2 and wire == 0:
            event["step"] = value
        elif number == 3 and wire == 2:
            event["file_version"] = value.decode()
        elif number == 5 and wire == 2:
            for n, w, entry in fields(value):
                tag, simple = None, None
                for n2, w2, v2 in fields(entry):
                    if n2 == 1 and w2 == 2:
                        tag = v2.decode()
                    elif n2 == 2 and w2 == 5:
                        simple, = struct.unpack("<f", v2)
                event["scalars"][tag] = simple
    return event


def read_events(directory):
    """tag -> {step: value}; a step written twice is an error."""
    names = sorted(n for n in os.listdir(directory) if "tfevents" in n)
    if not names:
        fail(f"no event file in {directory}")
    points = {}
    for name in names:
        path = os.path.join(directory, name)
        first = True
        for body in records(path):
            event = decode_event(body)
            if first:
                if event.get("file_version") != "brain.Event:2":
                    fail(f"{name}: first event {event}, not file_version")
                first = False
                continue
            for tag, value in event["scalars"].items():
                series = points.setdefault(tag, {})
                if event["step"] in series:
                    fail(f"{name}: '{tag}' at step {event['step']} again")
                series[event["step"]] = value
    return names, points


def check_events(args):
    names, points = read_events(args[0])
    steps = sorted(points.get("time/ms_per_step", {}))
    if not steps:
        fail("no time/ms_per_step scalars")
    print(f"events: {len(names)} files, {len(points)} tags, steps "
          f"{steps[0]}..{steps[-1]}")
    for tag in sorted(points):
        print(f"tag {tag} {len(points[tag])} points")
    metrics = option(args, "--same-as")
    if metrics:
        for row in read_metrics(metrics):
            want = None if row["loss"] is None else \
                struct.unpack("<f", struct.pack("<f", row["loss"]))[0]
            got = points.get("loss", {}).get(row["step"])
            if got != want:
                fail(f"step {row['step']}: event loss {got}, metrics {want}")
        print("events: the loss of every step equals the metrics file's")
        if sorted(points["time/ms_per_step"]) != \
                [r["step"] for r in read_metrics(metrics)]:
            fail("the events' steps are not the metrics file's")


def check_tensorboard(args):
    directory = args[0]
    steps = int(option(args, "--steps", "0"))
    try:
        from tensorboard.backend.event_processing import event_accumulator
        import tbparse
    except ImportError as error:
        fail(f"{error} (pip install tensorboard tbparse, and run with that "
             f"python)")
    acc = event_accumulator.EventAccumulator(directory)
    acc.Reload()
    tags = acc.Tags()["scalars"]
    print(f"tensorboard: scalars {sorted(tags)}")
    for tag in ("loss", "time/ms_per_step"):
        if tag not in tags:
            fail(f"TensorBoard's reader has no scalar '{tag}'")
        got = [e.step for e in acc.Scalars(tag)]
        if steps and got != list(range(1, steps + 1)):
            fail(f"TensorBoard's reader: '{tag}' at steps {got}")
        print(f"tensorboard: {tag} at {len(got)} steps, last "
              f"{acc.Scalars(tag)[-1].value:.6g}")
    frame = tbparse.SummaryReader(directory).scalars
    for tag in ("loss", "time/ms_per_step"):
        got = sorted(frame[frame["tag"] == tag]["step"].tolist())
        if steps and got != list(range(1, steps + 1)):
            fail(f"tbparse: '{tag}' at steps {got}")
    print(f"tbparse: {len(frame)} scalar points, {frame['tag'].nunique()} tags")
    if not math.isfinite(acc.Scalars("loss")[-1].value):
        fail("the last loss is not finite")


def main(argv):
    if len(argv) < 2 or argv[0] not in ("metrics", "events", "tensorboard"):
        sys.exit(__doc__)
    {"metrics": check_metrics, "events": check_events,
     "tensorboard": check_tensorboard}[argv[0]](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
