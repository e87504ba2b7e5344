"""A checker of Chrome Trace Event Format files (the JSON object form), as the Perfetto UI and the
Catapult trace viewer read them: the fields each phase requires, slices that nest, flow events that
pair up and bind to one slice without ambiguity, numeric counters.

`check(document)` returns a list of errors (empty when the file is valid), and `analyse(document)`
the errors and what a viewer must show of the file: the complete slices, each flow arrow as the
pair of slices it joins, the counter series. Used by scripts/check-trace-viewer.py;
`python3 trace_event_format.py FILE` checks one file, `--self-test` checks the checker on broken
traces.
"""

import json
import math
import sys
from collections import defaultdict

# https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU (the format)
PHASES = set("BEXiIsCtfMbenPONDSTpFR") | {"(", ")"}
METADATA = {"process_name", "process_labels", "process_sort_index", "thread_name", "thread_sort_index"}


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def nanoseconds(microseconds):
    """A timestamp in microseconds as integer nanoseconds, the resolution both viewers keep."""
    return round(microseconds * 1000)


class Slice:
    def __init__(self, event, index):
        self.event = event
        self.index = index
        self.name = event["name"]
        self.category = event.get("cat")
        self.start = nanoseconds(event["ts"])
        self.end = self.start + nanoseconds(event["dur"])
        self.thread = (event["pid"], event["tid"])
        self.depth = 0

    @property
    def key(self):
        return (self.name, self.start)

    def __repr__(self):
        return f"{self.name!r} at {self.start} ns (event {self.index})"


def check_fields(event, index, errors):
    where = f"event {index}"
    if not isinstance(event, dict):
        errors.append(f"{where}: not an object")
        return False
    phase = event.get("ph")
    if phase not in PHASES:
        errors.append(f"{where}: unknown phase {phase!r}")
        return False
    where = f"event {index} ({phase} {event.get('name')!r})"
    ok = True
    if not isinstance(event.get("name"), str):
        errors.append(f"{where}: name must be a string")
        ok = False
    for field in ("pid", "tid"):
        if not isinstance(event.get(field), (int, str)) or isinstance(event.get(field), bool):
            errors.append(f"{where}: {field} must be an integer or a string")
            ok = False
    if phase != "M" and not is_number(event.get("ts")):
        errors.append(f"{where}: ts must be a finite number")
        ok = False
    if "cat" in event and not isinstance(event["cat"], str):
        errors.append(f"{where}: cat must be a string")
        ok = False
    if "args" in event and not isinstance(event["args"], dict):
        errors.append(f"{where}: args must be an object")
        ok = False
    if phase == "X" and not (is_number(event.get("dur")) and event["dur"] >= 0):
        errors.append(f"{where}: a complete event needs a dur >= 0")
        ok = False
    if phase in "sft":
        if not isinstance(event.get("id"), (int, str)) or isinstance(event.get("id"), bool):
            errors.append(f"{where}: a flow event needs an id")
            ok = False
        if not isinstance(event.get("cat"), str):
            errors.append(f"{where}: a flow event needs a cat (viewers match s and f by cat and id)")
            ok = False
        if "bp" in event and event["bp"] != "e":
            errors.append(f"{where}: bp must be \"e\" when present")
            ok = False
    if phase in "iI" and event.get("s", "t") not in ("g", "p", "t"):
        errors.append(f"{where}: an instant event's scope s must be g, p or t")
        ok = False
    if phase == "C":
        args = event.get("args")
        if not isinstance(args, dict) or not args:
            errors.append(f"{where}: a counter event needs args with at least one series")
            ok = False
        elif not all(is_number(value) for value in args.values()):
            errors.append(f"{where}: counter values must be finite numbers, got {args}")
            ok = False
    if phase == "M":
        if event.get("name") not in METADATA:
            errors.append(f"{where}: unknown metadata {event.get('name')!r}")
            ok = False
        elif event["name"].endswith("_name") and not isinstance(event.get("args", {}).get("name"), str):
            errors.append(f"{where}: {event['name']} needs args.name, a string")
            ok = False
    return ok


def nest(slices, errors):
    """Sets each slice's depth; a slice that starts inside another must end inside it too."""
    by_thread = defaultdict(list)
    for item in slices:
        by_thread[item.thread].append(item)
    for items in by_thread.values():
        items.sort(key=lambda item: (item.start, -item.end, item.index))
        stack = []
        for item in items:
            while stack and stack[-1].end <= item.start and not (stack[-1].start == stack[-1].end == item.start):
                stack.pop()
            if stack and item.end > stack[-1].end:
                errors.append(f"slices overlap without nesting: {item} ends after {stack[-1]}, in which it starts")
            item.depth = len(stack)
            stack.append(item)


def enclosing(slices, thread, time, inclusive_end):
    """The deepest slice on `thread` open at `time` (its end counted in or out)."""
    best = None
    for item in slices:
        if item.thread != thread or item.start > time:
            continue
        if time < item.end or (inclusive_end and time == item.end):
            if best is None or item.depth > best.depth:
                best = item
    return best


def bind(slices, event, errors):
    """The slice a flow event binds to: the enclosing one for s, t and f with bp "e", else the next
    slice to start. Whether a slice's end is in it or out differs between viewers: a binding point
    on a boundary is ambiguous, and an error."""
    thread = (event["pid"], event["tid"])
    time = nanoseconds(event["ts"])
    if event["ph"] == "f" and event.get("bp") != "e":
        following = [item for item in slices if item.thread == thread and item.start >= time]
        return min(following, key=lambda item: (item.start, item.depth), default=None)
    inside = enclosing(slices, thread, time, inclusive_end=False)
    closed = enclosing(slices, thread, time, inclusive_end=True)
    if inside is not closed:
        errors.append(f"flow event {event['ph']} {event['id']} at {time} ns binds to {inside} or {closed}, "
                      f"depending on whether a slice's end is in it: put it inside one slice")
    return inside


def analyse(document):
    errors = []
    if not isinstance(document, dict) or not isinstance(document.get("traceEvents"), list):
        return ["the file must be an object with a traceEvents array"], None
    if document.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        errors.append("displayTimeUnit must be \"ms\" or \"ns\"")
    events = document["traceEvents"]
    valid = [(index, event) for index, event in enumerate(events) if check_fields(event, index, errors)]
    slices = [Slice(event, index) for index, event in valid if event["ph"] == "X"]
    nest(slices, errors)
    flows = defaultdict(dict)
    for index, event in valid:
        if event["ph"] in "sf":
            key = (event["cat"], event["id"])
            if event["ph"] in flows[key]:
                errors.append(f"event {index}: a second {event['ph']} for flow id {event['id']}")
            flows[key][event["ph"]] = event
    arrows = []
    for (category, flow_id), pair in sorted(flows.items(), key=lambda item: str(item[0])):
        if set(pair) != {"s", "f"}:
            errors.append(f"flow {category} {flow_id}: has {sorted(pair)}, needs one s and one f")
            continue
        start, finish = pair["s"], pair["f"]
        if start["name"] != finish["name"]:
            errors.append(f"flow {flow_id}: s and f have different names")
        if finish["ts"] < start["ts"]:
            errors.append(f"flow {flow_id}: f at {finish['ts']} is before its s at {start['ts']}")
        source, target = bind(slices, start, errors), bind(slices, finish, errors)
        if source is None or target is None:
            errors.append(f"flow {flow_id}: its {'s' if source is None else 'f'} binds to no slice")
        elif source is target:
            errors.append(f"flow {flow_id}: starts and ends on the same slice {source}")
        else:
            arrows.append((source.key, target.key))
    counters = defaultdict(list)
    for index, event in valid:
        if event["ph"] == "C":
            for series, value in event["args"].items():
                counters[(event["name"], series)].append((nanoseconds(event["ts"]), value))
    for series, samples in counters.items():
        if [time for time, _ in samples] != sorted(time for time, _ in samples):
            errors.append(f"counter {series}: samples out of time order")
    model = {"slices": slices, "arrows": arrows, "counters": dict(counters)}
    return errors, model


def check(document):
    return analyse(document)[0]


def sample_trace(*changes):
    """A small valid trace: a commit with a recomputation under it and a notification after it,
    a flow from the commit to the recomputation, a counter; each of `changes` edits its events."""
    def event(ph, name, ts, **fields):
        return {"ph": ph, "pid": 1, "tid": 1, "name": name, "ts": ts, **fields}

    events = [
        {"ph": "M", "pid": 1, "tid": 1, "name": "thread_name", "args": {"name": "main"}},
        event("X", "commit", 10.0, cat="commit", dur=5.0, args={}),
        event("X", "value", 12.0, cat="recompute", dur=1.0, args={}),
        event("X", "notify", 15.002, cat="notify", dur=0.001, args={}),
        event("s", "cause", 10.0, cat="flow", id=1),
        event("f", "cause", 12.0, cat="flow", id=1, bp="e"),
        event("C", "recomputations", 12.0, args={"recomputations": 1}),
    ]
    for change in changes:
        change(events)
    return {"displayTimeUnit": "ns", "traceEvents": events}


def self_test():
    """The checker on the sample trace, then on broken copies of it: each must be rejected for
    its reason. Returns the number of failures."""
    document = sample_trace

    def edit(index, **fields):
        return lambda events: events[index].update(fields)

    def remove(index, field):
        return lambda events: events[index].pop(field)

    cases = {
        "a complete event needs a dur": [remove(2, "dur")],
        "ts must be a finite number": [edit(2, ts="12")],
        "unknown phase": [edit(2, ph="Q")],
        "needs one s and one f": [lambda events: events.pop(5)],
        "a flow event needs a cat": [remove(4, "cat")],
        "bp must be": [edit(5, bp="x")],
        "is before its s": [edit(4, ts=12.5), edit(5, ts=12.2)],
        "depending on whether a slice's end is in it": [edit(5, ts=15.0)],
        "binds to no slice": [edit(5, ts=20.0)],
        "starts and ends on the same slice": [edit(5, ts=10.5)],
        "overlap without nesting": [edit(2, dur=10.0)],
        "counter values must be finite numbers": [edit(6, args={"recomputations": "1"})],
        "needs args.name": [edit(0, args={})],
        "displayTimeUnit": [lambda events: None],
    }
    failures = 0
    if check(document()):
        print(f"self-test: the valid trace was rejected: {check(document())}")
        failures += 1
    for reason, changes in cases.items():
        broken = document(*changes)
        if reason == "displayTimeUnit":
            broken["displayTimeUnit"] = "s"
        errors = check(broken)
        if not any(reason in error for error in errors):
            print(f"self-test: a trace that should fail with {reason!r} gave {errors}")
            failures += 1
    print(f"trace_event_format self-test: {len(cases) + 1 - failures} passed, {failures} failed")
    return failures


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(1 if self_test() else 0)
    with open(sys.argv[1], encoding="utf-8") as file:
        found = check(json.load(file))
    for error in found:
        print(f"{sys.argv[1]}: error: {error}")
    sys.exit(1 if found else 0)
