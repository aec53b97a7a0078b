#!/usr/bin/env python3
"""Measures how long headless Chromium takes to render memprof HTML pages (target: report.html
rendered in at most 0.3 s for any run), over the DevTools protocol (scripts/browser_check.py's
client). Each page is loaded LOADS times from file:// in a fresh tab of a 1400 × 1000 window; per
load it reads, in ms from the navigation's start (Navigation Timing):

  load      the load event's end (the page parsed, its script run, its images decoded);
  script    the end of the page's own script (window.__memprofReadyMs);
  rendered  the first frame painted after both: a requestAnimationFrame callback once the load
            event is over, then the next task (the frame's style, layout and paint are done).

and, from a trace of the load (Tracing, the devtools.timeline categories), the CPU time of the page's main
thread until then (parsing, style, layout, paint, script): wall times grow when other work shares
the machine, that CPU time much less. Prints the median of each and every load's `rendered`
figure; with --limit-ms, exits 1 when a page's median main-thread CPU time is above it (pass
--limit-wall to hold the wall time instead, on a quiet machine). DOM nodes are counted too.

usage: html_render.py [--loads N] [--limit-ms MS] PAGE.html [PAGE.html ...]
"""
import argparse, json, os, statistics, sys, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Browser

PROBE = """new Promise(done => {
  const finish = () => requestAnimationFrame(() => setTimeout(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    done(JSON.stringify({load: nav.loadEventEnd, script: window.__memprofReadyMs || 0,
                         rendered: performance.now(), nodes: document.getElementsByTagName('*').length}));
  }, 0));
  if (document.readyState === 'complete' && performance.getEntriesByType('navigation')[0].loadEventEnd > 0) finish();
  else addEventListener('load', () => setTimeout(finish, 0));
})"""


def measure(browser, path):
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    try:
        browser.call("Page.enable", session=session)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False}, session=session)
        browser.events.clear()
        browser.call("Tracing.start", {"traceConfig": {"includedCategories": ["devtools.timeline", "disabled-by-default-devtools.timeline"]},
                                       "transferMode": "ReportEvents"}, session=session)
        browser.call("Page.navigate", {"url": "file://" + urllib.parse.quote(os.path.abspath(path))}, session=session)
        browser.wait_for("Page.loadEventFired", timeout=120)
        value = browser.call("Runtime.evaluate", {"expression": PROBE, "awaitPromise": True, "returnByValue": True},
                             session=session, timeout=120)
        result = json.loads(value["result"]["value"])
        browser.call("Tracing.end", session=session)
        trace = []
        while True:
            message = browser.wait_for_any(("Tracing.dataCollected", "Tracing.tracingComplete"), timeout=120)
            if message["method"] == "Tracing.tracingComplete":
                break
            trace += message["params"]["value"]
        result["cpu"] = main_thread_cpu(trace)
        return result
    finally:
        browser.call("Target.closeTarget", {"targetId": target})


def main_thread_cpu(trace):
    """The CPU time (ms) of the top-level tasks of the renderer's main thread that parsed the page."""
    main = {(e["pid"], e["tid"]) for e in trace
            if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    parsed = {(e["pid"], e["tid"]) for e in trace if e.get("name") == "ParseHTML"}
    threads = main & parsed or main
    return sum(e.get("tdur", e.get("dur", 0)) for e in trace
               if e.get("ph") == "X" and e.get("name") == "RunTask" and (e["pid"], e["tid"]) in threads) / 1000


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--loads", type=int, default=3)
    p.add_argument("--limit-ms", type=float)
    p.add_argument("--limit-wall", action="store_true", help="hold the wall time to --limit-ms, not the CPU time")
    p.add_argument("pages", nargs="+")
    a = p.parse_args()
    browser = Browser()
    failed = False
    try:
        measure(browser, a.pages[0])  # a first load warms the browser up
        for path in a.pages:
            runs = [measure(browser, path) for _ in range(a.loads)]
            each = ", ".join(f"{r['rendered']:.0f}" for r in runs)
            med = {k: statistics.median(r[k] for r in runs) for k in ("load", "script", "rendered", "cpu")}
            size = os.path.getsize(path) / 1048576
            over = a.limit_ms is not None and med["rendered" if a.limit_wall else "cpu"] > a.limit_ms
            failed |= over
            name = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))), os.path.basename(path))
            print(f"{name}: {size:.2f} MB, {runs[0]['nodes']} DOM nodes; median of {a.loads}: load {med['load']:.0f} ms, "
                  f"script {med['script']:.0f} ms, rendered {med['rendered']:.0f} ms, main-thread CPU {med['cpu']:.0f} ms "
                  f"(rendered: {each} ms)"
                  + (f"  ABOVE {a.limit_ms:.0f} ms" if over else ""))
    finally:
        browser.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
