#!/usr/bin/env python3
"""Opens memprof HTML pages in headless Chromium over the DevTools protocol and checks them.

For each page: no console error, no uncaught exception, no log entry of level error, and no
network request other than file:, data: and about: URLs; the charts drew (SVG elements with
data); hover shows a tooltip and a drag on the memory chart zooms the swimlanes. Saves light and
dark PNG screenshots and prints the load time. Standard library only (its own small WebSocket
client), so it needs nothing from PyPI.

usage: browser_check.py OUTDIR PAGE.html [PAGE.html ...]   (exit 1 on any failure)
"""
import base64, json, os, re, shutil, signal, socket, struct, subprocess, sys, tempfile, time, urllib.parse

class WebSocket:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        req = (f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("websocket handshake failed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake refused: " + head.decode(errors="replace"))

    def send(self, text):
        data = text.encode()
        header = bytearray([0x81])
        n = len(data)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header.append(0x80 | 126); header += struct.pack("!H", n)
        else:
            header.append(0x80 | 127); header += struct.pack("!Q", n)
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _exact(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise RuntimeError("websocket closed")
            buf += chunk
        return bytes(buf)

    def recv(self):
        message = bytearray()
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126: n = struct.unpack("!H", self._exact(2))[0]
            elif n == 127: n = struct.unpack("!Q", self._exact(8))[0]
            mask = self._exact(4) if b1 & 0x80 else None
            payload = self._exact(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = b0 & 0x0F
            if opcode == 0x9:  # ping
                continue
            if opcode == 0x8:
                raise RuntimeError("websocket closed by browser")
            message += payload
            if b0 & 0x80:
                return message.decode()

class Browser:
    def __init__(self):
        exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not exe:
            raise SystemExit("no chromium found")
        self.profile = tempfile.mkdtemp(prefix="memprof-chromium-")
        # Chromium makes folders of its own in $TMPDIR (org.chromium.Chromium.*): give it one
        # inside the profile, removed with it.
        scratch = os.path.join(self.profile, "tmp")
        os.makedirs(scratch)
        self.proc = subprocess.Popen([exe, "--headless=new", "--no-sandbox", "--disable-gpu",
                                      "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                                      f"--user-data-dir={self.profile}", "--no-first-run",
                                      "--disable-background-networking", "--disable-component-update",
                                      "--disable-sync", "--disable-default-apps", "--allow-file-access-from-files",
                                      "about:blank"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                                     env={**os.environ, "TMPDIR": scratch}, start_new_session=True)
        url = None
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                url = m.group(1); break
        if not url:
            self.close()
            raise SystemExit("chromium did not start its DevTools endpoint")
        self.ws = WebSocket(url)
        self.next_id = 0
        self.events = []

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise RuntimeError(f"{method}: no reply")

    def wait_for(self, method, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        raise RuntimeError(f"timed out waiting for {method}")

    def wait_for_any(self, methods, timeout=60):
        """The first event (kept or still to come) whose method is one of `methods`."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for i, e in enumerate(self.events):
                if e.get("method") in methods:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        raise RuntimeError(f"timed out waiting for {', '.join(methods)}")

    def close(self):
        # Chromium's helpers (its network service writes into the profile as it stops) are in the
        # browser's process group: end the whole group before removing the profile, or a helper
        # that outlives the browser writes the folder back.
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)
        except Exception:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

CONTRAST_MIN = 4.5        # WCAG AA for body text
ADJACENT_DELTA_E_MIN = 25  # CIE76 distance between neighbouring app colours (Palette.minimumAdjacentDistance)

def _srgb(c):
    c = c / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

def parse_color(text):
    """'rgb(1, 2, 3)', 'rgba(1, 2, 3, 0.5)' or '#rrggbb' to (r, g, b, a)."""
    text = text.strip()
    if text.startswith("#"):
        v = int(text[1:7], 16)
        return ((v >> 16) & 255, (v >> 8) & 255, v & 255, 1.0)
    nums = [float(x) for x in re.findall(r"[\d.]+", text)]
    return (nums[0], nums[1], nums[2], nums[3] if len(nums) > 3 else 1.0)

def luminance(rgb):
    r, g, b = (_srgb(x) for x in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b

def contrast(a, b):
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)

def lab(rgb):
    r, g, b = (_srgb(x) for x in rgb[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))

def delta_e(a, b):
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5

# The colour of each element's text and the background it sits on (the first opaque background
# up its ancestors, blended over the page), as the browser computed them.
TEXT_COLOURS_JS = """(function(sel){var out=[];var els=document.querySelectorAll(sel);
  function bg(el){var layers=[];while(el&&el.nodeType===1){var c=getComputedStyle(el).backgroundColor;layers.push(c);
  var m=/rgba?\\(([^)]+)\\)/.exec(c);if(m){var p=m[1].split(',').map(Number);if(p.length<4||p[3]>=1)break;}el=el.parentElement;}
  if(!el)layers.push(getComputedStyle(document.documentElement).backgroundColor||'rgb(255,255,255)');return layers;}
  for(var i=0;i<els.length&&i<40;i++){var e=els[i];if(!e.offsetParent&&e.tagName!=='BODY')continue;
  out.push({text:e.textContent.slice(0,40),color:getComputedStyle(e).color,bg:bg(e)});}return JSON.stringify(out);})"""

def effective_background(layers):
    """Blend the translucent layers (innermost first) over the outermost opaque one."""
    colours = [parse_color(c) for c in layers if c and c != "transparent"]
    if not colours:
        return (255, 255, 255, 1)
    base = colours[-1]
    if base[3] < 1:
        base = (255, 255, 255, 1)
    for c in reversed(colours[:-1]):
        a = c[3]
        base = tuple(c[i] * a + base[i] * (1 - a) for i in range(3)) + (1,)
    return base

def sample_times(path):
    """From the report.json beside a report.html: per flame graph id, the handler's runs (start,
    duration, samples) and every sample time as (time, count) pairs, from `profile`."""
    report = os.path.join(os.path.dirname(os.path.abspath(path)), "report.json")
    if not os.path.exists(report):
        return {}
    with open(report) as fh:
        profile = json.load(fh).get("profile") or {}
    out = {}
    for index, handler in enumerate(profile.get("handlers", [])):
        pairs = [tuple(p) for stack in handler.get("stacks", []) for p in (stack.get("times") or [])]
        if not pairs:
            continue
        runs = [r for r in profile.get("runs", []) if r["app"] == handler["app"] and r["handler"] == handler["handler"]
                and r.get("startUs") is not None]
        out[f"flame-{index}"] = {"runs": runs, "pairs": pairs, "total": sum(s["count"] for s in handler["stacks"])}
    return out


def check_flame_selection(path, name, outdir, evaluate, js, mouse, problems, counts, browser, session):
    """Selects part of one handler run's samples on the memory chart (a drag to zoom near the run,
    then a drag inside it), reads the flame graph's sample count from the page and checks that it
    is exactly the number of samples report.json places in the selected range; reset restores
    the whole count. Saves light and dark screenshots with the selection."""
    graphs = sample_times(path)
    if not graphs:
        return
    gid, g = max(graphs.items(), key=lambda kv: max((r["samples"] for r in kv[1]["runs"]), default=0))
    run = max(g["runs"], key=lambda r: r["samples"])
    if run["samples"] < 4 or not run.get("durationUs"):
        counts["flameSelection"] = f"skipped: no run of {gid} with enough samples"
        return

    def client_x(t):
        return js("""(function(t){var D=JSON.parse(document.getElementById('memprof-data').textContent),M=D.memory;
          var fr=document.getElementById('flame-range'),v0=fr.hasAttribute('data-t0')?+fr.getAttribute('data-t0'):0,
          v1=fr.hasAttribute('data-t1')?+fr.getAttribute('data-t1'):M.durationUs;var svg=document.getElementById('mem'),m=svg.getScreenCTM();
          var x=M.x0+(t-v0)/(v1-v0)*(M.x1-M.x0);return m.a*x+m.e;})(%d)""" % t)

    def drag(t0, t1):
        box = js("JSON.stringify(document.getElementById('hit').getBoundingClientRect())")
        y = box["top"] + box["height"] * 0.45
        # Pressed at the later time and released at the earlier one: the press must land inside
        # the chart, the release may fall on its edge or past it.
        a, b = client_x(t1) - 0.5, client_x(t0)
        mouse("mousePressed", a, y, button="left", clickCount=1)
        for i in range(1, 6):
            mouse("mouseMoved", a + (b - a) * i / 5, y, button="left")
        mouse("mouseReleased", b, y, button="left", clickCount=1)

    def page_count():
        return evaluate(f"+document.getElementById({json.dumps(gid)}).getAttribute('data-samples')")

    evaluate("window.scrollTo(0,0)")
    js("JSON.stringify(document.getElementById('hit').scrollIntoView({block:'center'}))")
    whole = page_count()
    start, duration = run["startUs"], run["durationUs"]
    # Zoom in on the run, at most 40× a step (a drag of a few dozen pixels), until it is wide.
    near = (start - duration // 5, start + duration + duration // 5)
    for _ in range(12):
        v0 = evaluate("+(document.getElementById('flame-range').getAttribute('data-t0')||0)")
        v1 = evaluate("+(document.getElementById('flame-range').getAttribute('data-t1')||0)") or js(
            "JSON.parse(document.getElementById('memprof-data').textContent).memory.durationUs")
        if v1 - v0 <= 40 * (near[1] - near[0]):
            break
        # A window of 1/40 of the view around the run (the drag clamps at the chart's edges).
        width = (v1 - v0) / 40
        a = min(max(v0, (near[0] + near[1]) / 2 - width / 2), v1 - width)
        drag(int(a), int(a + width))
    drag(*near)
    drag(start + duration * 3 // 10, start + duration * 65 // 100)       # part of its samples
    t0 = evaluate("+document.getElementById('flame-range').getAttribute('data-t0')")
    t1 = evaluate("+document.getElementById('flame-range').getAttribute('data-t1')")
    shown = page_count()
    note = evaluate(f"(document.querySelector('#box-{gid} .flame-note')||{{}}).textContent||''")
    expected = sum(c for t, c in g["pairs"] if t0 <= t <= t1)
    in_run = sum(c for t, c in g["pairs"] if start <= t <= start + duration)
    counts["flameSelection"] = (f"{gid}: run at {start} us ({run['samples']} samples); selected {t0:.0f}-{t1:.0f} us: "
                                f"page {shown} samples, report.json {expected} in range; whole {whole} of {g['total']}; note {note!r}")
    if shown != expected:
        problems.append(f"the flame graph shows {shown} samples in the selected range, report.json places {expected} there")
    if not 0 < expected < in_run:
        problems.append(f"the selection did not cover part of a handler run's samples ({expected} of {in_run})")
    if str(expected) not in note:
        problems.append(f"the flame graph's note does not give the samples in range: {note!r}")
    boxes = evaluate(f"document.getElementById({json.dumps(gid)}).querySelectorAll('g.fb').length")
    if not boxes:
        problems.append("the flame graph drew nothing for the selected range")
    # Screenshots with the selection: the whole page, light and dark.
    for scheme in ("light", "dark"):
        browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session=session)
        height = evaluate("Math.ceil(document.documentElement.scrollHeight)") or 1000
        browser.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": min(int(height), 8000),
                                                            "deviceScaleFactor": 1, "mobile": False}, session=session)
        shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
        file = os.path.join(outdir, f"{name}-selection-{scheme}.png")
        with open(file, "wb") as fh:
            fh.write(base64.b64decode(shot["data"]))
        counts.setdefault("selectionShots", []).append(file)
    browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]}, session=session)
    browser.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 1000, "deviceScaleFactor": 1,
                                                        "mobile": False}, session=session)
    evaluate("document.getElementById('reset').click()")
    restored = page_count()
    if restored != whole or whole != g["total"]:
        problems.append(f"reset did not restore the flame graph's samples ({restored}, whole run {whole}, report.json {g['total']})")


def check_page(browser, path, outdir):
    problems = []
    name = os.path.basename(os.path.dirname(os.path.abspath(path))) + "-" + os.path.splitext(os.path.basename(path))[0]
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(f"{domain}.enable", session=session)
    browser.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 1000, "deviceScaleFactor": 1,
                                                        "mobile": False}, session=session)
    browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]}, session=session)
    browser.events.clear()
    url = "file://" + urllib.parse.quote(os.path.abspath(path))
    started = time.time()
    browser.call("Page.navigate", {"url": url}, session=session)
    browser.wait_for("Page.loadEventFired")
    load_ms = (time.time() - started) * 1000

    def evaluate(expr):
        r = browser.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
        if "exceptionDetails" in r:
            problems.append(f"evaluate failed: {expr[:80]}: {r['exceptionDetails'].get('text')}")
            return None
        return r["result"].get("value")

    def js(expr):
        v = evaluate(expr)
        return json.loads(v) if isinstance(v, str) else v

    def mouse(kind, x, y, **extra):
        browser.call("Input.dispatchMouseEvent", dict({"type": kind, "x": x, "y": y}, **extra), session=session)

    def click(x, y):
        mouse("mouseMoved", x, y)
        mouse("mousePressed", x, y, button="left", clickCount=1)
        mouse("mouseReleased", x, y, button="left", clickCount=1)

    def center(selector):
        """Scrolls `selector` into view and returns its centre in the viewport, or None. The page
        settles first: sections skipped while out of view (content-visibility) take their real
        size in the frames after a scroll, which can move what was scrolled to."""
        found = js(f"""(function(){{var e=document.querySelector({json.dumps(selector)});if(!e)return null;
          e.scrollIntoView({{block:'center'}});return '1';}})()""")
        if not found:
            return None
        time.sleep(0.3)
        return js(f"""(function(){{var e=document.querySelector({json.dumps(selector)});
          e.scrollIntoView({{block:'center'}});var b=e.getBoundingClientRect();return JSON.stringify({{x:b.left+b.width/2,y:b.top+b.height/2,w:b.width,h:b.height}});}})()""")

    nav = evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0]||{})")
    timing = json.loads(nav or "{}")
    ready_ms = evaluate("window.__memprofReadyMs||0")
    kind = evaluate("document.body.getAttribute('data-page')||''")
    counts = {}
    if kind in ("report", "compare", "check"):
        counts.update(js("""JSON.stringify({
          areas: document.querySelectorAll('#mem path.area').length,
          used: (document.querySelector('#mem path.used')||{getAttribute(){return ''}}).getAttribute('d').length,
          ready: document.documentElement.getAttribute('data-ready'),
          bytes: document.documentElement.outerHTML.length})""") or {})
        if counts.get("areas", 0) < 1: problems.append("memory chart drew no stacked area")
        if counts.get("used", 0) < 10: problems.append("memory chart drew no used line")
        if counts.get("ready") != "1": problems.append("page script did not finish")
        # The in-RAM compressor's pool (xnu on a phone): its own line on the memory chart, with
        # points, drawn with a visible stroke, and its legend entry. phone-day-2026 has one.
        pool = js("""(function(){var M=JSON.parse(document.getElementById('memprof-data').textContent).memory||{};
          var p=document.querySelector('#mem path#pool'),b=p?p.getBBox():null;
          return JSON.stringify({data:(M.pool||[]).length,path:!!p,steps:p?(p.getAttribute('d').match(/[HV]/g)||[]).length:0,
            w:b?b.width:0,h:b?b.height:0,stroke:p?getComputedStyle(p).stroke:'',legend:document.querySelectorAll('.legend .k-pool').length});})()""") or {}
        counts["pool"] = pool
        expects_pool = "/phone-day-2026/" in path or pool.get("data", 0) > 0
        if expects_pool and kind == "report":
            if not pool.get("path"): problems.append("memory chart drew no compressor pool line (#pool)")
            elif pool.get("steps", 0) < 4 or pool.get("w", 0) <= 0 or pool.get("h", 0) <= 0:
                problems.append(f"compressor pool line has no points ({pool})")
            if pool.get("stroke") in ("", "none"): problems.append(f"compressor pool line is not stroked ({pool})")
            if pool.get("legend", 0) < 1: problems.append("memory legend has no entry for the compressor pool")
        elif pool.get("path") and kind == "report":
            problems.append("memory chart drew a compressor pool line for a run without one")
        # Y ticks are round numbers: whole MB, or GB in quarters.
        ylabels = js("JSON.stringify([].map.call(document.querySelectorAll('#mem .grid .ylab'),function(t){return t.textContent;}))") or []
        for label in ylabels:
            m = re.fullmatch(r"([\d.]+) (MB|GB|KB)|0", label)
            if not m or (m.group(2) == "MB" and "." in m.group(1)) or (m.group(2) == "GB" and (float(m.group(1)) * 4) % 1):
                problems.append(f"y-axis tick is not a round number: {label!r}")
        counts["yTicks"] = " ".join(ylabels)
        # No label overlaps another (level labels, axis labels, panel titles).
        overlaps = js("""(function(){var ts=[].slice.call(document.querySelectorAll('#mem text')).filter(function(t){return t.getBBox().width>0&&t.textContent;});
          var out=[];for(var i=0;i<ts.length;i++){var a=ts[i].getBoundingClientRect();for(var j=i+1;j<ts.length;j++){var b=ts[j].getBoundingClientRect();
          if(a.left<b.right-1&&b.left<a.right-1&&a.top<b.bottom-1&&b.top<a.bottom-1)out.push(ts[i].textContent+' / '+ts[j].textContent);}}return JSON.stringify(out);})()""") or []
        for o in overlaps: problems.append(f"labels overlap on the memory chart: {o}")
        # Neighbouring app colours differ enough.
        fills = js("""JSON.stringify([].slice.call(document.querySelectorAll('#mem path.area')).map(function(p){return [+p.getAttribute('data-app'),getComputedStyle(p).fill];}).sort(function(a,b){return a[0]-b[0];}))""") or []
        worst = None
        for (i, a), (j, b) in zip(fills, fills[1:]):
            d = delta_e(parse_color(a), parse_color(b))
            worst = d if worst is None else min(worst, d)
            if j == i + 1 and d < ADJACENT_DELTA_E_MIN:
                problems.append(f"apps {i} and {j} have colours too close (ΔE {d:.1f} < {ADJACENT_DELTA_E_MIN})")
        counts["adjacentColourDeltaE"] = f"min {worst:.1f}" if worst is not None else "one app"
        if not js("!!document.querySelector('.legend .k-p-warning')"): problems.append("pressure strip has no legend")
        # Hover the memory chart: a tooltip with values appears.
        box = center("#hit")
        box = js("JSON.stringify(document.getElementById('hit').getBoundingClientRect())")
        y = box["top"] + box["height"] * 0.45
        x0, x1 = box["left"] + box["width"] * 0.30, box["left"] + box["width"] * 0.55
        mouse("mouseMoved", x0, y)
        tip = evaluate("document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent")
        if not tip or "used" not in tip: problems.append(f"hover on the memory chart showed no values ({tip!r})")
        counts["tip"] = tip
        # Drag across it: the chart itself zooms (its group is scaled, the time axis redrawn), the
        # lanes follow, and the reset button undoes it.
        axis_before = evaluate("document.getElementById('xgrid').textContent")
        lanes_before = evaluate("(document.getElementById('lanesvg')||{getAttribute(){return null}}).getAttribute('viewBox')")
        mouse("mousePressed", x0, y, button="left", clickCount=1)
        for i in range(1, 6):
            mouse("mouseMoved", x0 + (x1 - x0) * i / 5, y, button="left")
        mouse("mouseReleased", x1, y, button="left", clickCount=1)
        zoom = evaluate("document.getElementById('zoom').getAttribute('transform')||''")
        axis_after = evaluate("document.getElementById('xgrid').textContent")
        lanes_after = evaluate("(document.getElementById('lanesvg')||{getAttribute(){return null}}).getAttribute('viewBox')")
        label = evaluate("document.getElementById('range').textContent")
        if "scale(" not in zoom: problems.append("dragging on the memory chart did not zoom the chart")
        if axis_before == axis_after: problems.append("zooming did not redraw the time axis")
        if lanes_before is not None and lanes_before == lanes_after: problems.append("dragging on the memory chart did not zoom the swimlanes")
        counts["zoom"] = f"{zoom} ({label}); axis {axis_before[:30]}… -> {axis_after[:30]}…"
        # The flame graphs follow the range (a report with samples).
        notes = js("JSON.stringify([].map.call(document.querySelectorAll('.flame-note'),function(n){return n.textContent;}).filter(String))") or []
        hidden_boxes = evaluate("document.querySelectorAll('.flame-box[hidden]').length") or 0
        if kind == "report" and evaluate("document.querySelectorAll('svg.flame').length") and evaluate("!!(D_has_runs=JSON.parse(document.getElementById('memprof-data').textContent).flame.graphs.some(function(g){return g.runs.length;}))"):
            if not notes and not hidden_boxes: problems.append("the flame graphs did not follow the selected range")
        counts["flameRange"] = f"{notes[:2]}, {hidden_boxes} hidden"
        # Zoom within the zoom: still a transform, then reset clears it.
        evaluate("document.getElementById('reset').click()")
        if evaluate("document.getElementById('zoom').getAttribute('transform')||''"): problems.append("reset did not restore the whole run")
        if kind == "report":
            check_flame_selection(path, name, outdir, evaluate, js, mouse, problems, counts, browser, session)

    if kind == "report":
        counts.update(js("""JSON.stringify({
          lanes: document.querySelectorAll('#lanesvg path[class^="s-"]').length,
          rows: document.querySelectorAll('#atable tbody tr').length,
          decisions: document.querySelectorAll('#dtable tbody tr[data-t]').length,
          jetsamViews: document.querySelectorAll('details.jetsam').length,
          killMarks: document.querySelectorAll('#kills a').length,
          platform: document.body.getAttribute('data-platform')})""") or {})
        if counts.get("lanes", 0) < 1: problems.append("swimlanes drew no state")
        if counts.get("rows", 0) < 1: problems.append("per-app table is empty")
        # One row per decision: an eviction's exit and reclaim are not rows of their own.
        kinds = js("JSON.stringify([].map.call(document.querySelectorAll('#dtable tbody tr[data-kind]'),function(r){return r.getAttribute('data-kind')+'@'+r.getAttribute('data-t');}))") or []
        evictions = [k for k in kinds if k.startswith("eviction@")]
        reclaims_same_time = [k for k in kinds if k.startswith("reclaim@") and ("eviction@" + k.split("@")[1]) in evictions]
        if reclaims_same_time: problems.append(f"an eviction and its reclaim are separate rows: {reclaims_same_time[:3]}")
        warn_times = [k for k in kinds if k.startswith("memoryWarning@")]
        if len(warn_times) != len(set(warn_times)): problems.append("the warnings of one rise take more than one row")
        # The decisions table comes in chunks (each its own table, skipped by the browser while out
        # of view): the header's columns line up with every chunk's, and the header stays in view
        # when the table is scrolled.
        align = js("""(function(){var box=document.getElementById('dtable');if(!box)return null;
          box.scrollIntoView({block:'start'});var head=box.querySelectorAll('table.dhead th'),out={chunks:0,off:[]};
          var tables=box.querySelectorAll('.dchunk table');out.chunks=tables.length;
          for(var t=0;t<tables.length;t++){tables[t].scrollIntoView({block:'nearest'});var cells=tables[t].querySelector('tr:not(.omitted)');
            if(!cells)continue;cells=cells.children;
            for(var i=0;i<head.length&&i<cells.length;i++){var d=Math.abs(head[i].getBoundingClientRect().left-cells[i].getBoundingClientRect().left);if(d>1)out.off.push([t,i,d]);}}
          box.scrollTop=box.scrollHeight;var top=box.getBoundingClientRect().top,h=box.querySelector('table.dhead').getBoundingClientRect().top;
          out.headInView=Math.abs(h-top)<2||box.scrollHeight<=box.clientHeight;box.scrollTop=0;return JSON.stringify(out);})()""")
        if align:
            counts["decisionChunks"] = align["chunks"]
            if align["off"]: problems.append(f"decisions: header and rows not aligned: {align['off'][:3]}")
            if not align["headInView"]: problems.append("decisions: the header scrolled away with the rows")
        # The apps table fits 1400 px without a horizontal scroll.
        fit = js("(function(){var t=document.getElementById('atable');return JSON.stringify({table:t.scrollWidth,box:t.parentElement.clientWidth});})()")
        if fit and fit["table"] > fit["box"] + 1: problems.append(f"apps table does not fit at 1400 px ({fit['table']} > {fit['box']})")
        # Jetsam: a kill marker on the chart opens its view; so does the decisions table's link.
        if counts.get("jetsamViews"):
            if not counts.get("killMarks"): problems.append("kills have no marker on the chart to open their jetsam report")
            evaluate("window.scrollTo(0,0)")
            p = center("#kills a")
            click(p["x"], p["y"])
            opened = js("""(function(){var d=document.querySelector('details.jetsam[open]');if(!d)return null;var b=d.getBoundingClientRect();
              var q=d.querySelector('.jetsam-pool'),qb=q?q.getBoundingClientRect():null;
              return JSON.stringify({id:d.id,top:b.top,rows:d.querySelectorAll('tbody tr').length,killed:d.querySelectorAll('tr.killed').length,
                pool:q?q.textContent:'',poolHeight:qb?qb.height:0});})()""")
            if not opened: problems.append("clicking a kill marker did not open its jetsam report")
            elif opened["top"] < -5 or opened["top"] > 1000: problems.append(f"the jetsam report opened off screen ({opened})")
            elif opened["killed"] != 1: problems.append(f"the jetsam report does not mark the killed process ({opened})")
            # With the in-RAM compressor each kill's view gives the pool and its counts at the kill.
            elif counts.get("pool", {}).get("data", 0) > 0:
                if not opened["pool"].startswith("compressor: ") or opened["poolHeight"] <= 0:
                    problems.append(f"the jetsam report shows no compressor figures ({opened})")
            elif opened["pool"]: problems.append(f"the jetsam report of a run without a compressor shows one ({opened})")
            counts["jetsamFromMarker"] = opened
            evaluate("document.querySelectorAll('details.jetsam').forEach(function(d){d.open=false;})")
            p = center("#dtable a.jl")
            if not p: problems.append("no decision links to a jetsam report")
            else:
                click(p["x"], p["y"])
                counts["jetsamFromTable"] = evaluate("(document.querySelector('details.jetsam[open]')||{}).id")
                if not counts["jetsamFromTable"]: problems.append("the decisions table's jetsam link opened nothing")
        if "observer" in path:
            obs = js("JSON.stringify({rows:document.querySelectorAll('#otable tbody tr').length,lines:document.querySelectorAll('#obschart path.obs').length})")
            counts["observers"] = obs
            if not obs or obs["rows"] < 1 or obs["lines"] < 1: problems.append(f"no observers table or chart on an observer workload ({obs})")
        if counts.get("platform") == "macos":
            titles = js("JSON.stringify([].map.call(document.querySelectorAll('#summary .card h3'),function(h){return h.textContent;}))") or []
            counts["macCards"] = titles
            for ios_only in ("evictions", "compressions", "peak flash", "background tasks", "memory kills"):
                if ios_only in titles: problems.append(f"Mac page shows the iOS-only card {ios_only!r}")
            for mac in ("swap", "time over RAM", "app memory"):
                if mac not in titles: problems.append(f"Mac page lacks the {mac!r} card")
            panel = evaluate("(document.querySelector('#mem text.panel')||{}).textContent||''")
            if "swap" not in panel: problems.append(f"Mac memory chart's lower panel is not swap ({panel!r})")
        # Hover a lane segment: its state shows.
        # The longest exact segment of any lane, from the page's own data, in viewport coordinates
        # (scrolled into view: a page of many apps has lanes taller than the window).
        seg = js("""(function(){var L=JSON.parse(document.getElementById('memprof-data').textContent).lanes,best=null;
          for(var r=0;r<L.seg.length;r++){var a=L.seg[r],p=0;for(var i=0;i<a.length;i+=5){p+=a[i];if(a[i+4]===1&&a[i+2]!==1&&(!best||a[i+1]>best.n))best={r:r,u:p+a[i+1]/2,n:a[i+1]};}}
          if(!best)return null;var svg=document.getElementById('lanesvg');svg.scrollIntoView({block:'center'});
          var pt=svg.createSVGPoint();pt.x=best.u;pt.y=best.r*L.rowHeight+10;var q=pt.matrixTransform(svg.getScreenCTM());
          if(q.y<0||q.y>innerHeight){window.scrollBy(0,q.y-innerHeight/2);q=pt.matrixTransform(svg.getScreenCTM());}return JSON.stringify({x:q.x,y:q.y});})()""")
        if seg:
            mouse("mouseMoved", seg["x"], seg["y"])
            lane_tip = evaluate("document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent")
            if not lane_tip or "from" not in lane_tip: problems.append(f"hover on a lane showed no state ({lane_tip!r})")
            counts["laneTip"] = lane_tip
        evaluate("""(function(){var s=document.getElementById('f-kind');if(!s)return;s.value='compression';s.dispatchEvent(new Event('change'));})()""")
        counts["filter"] = evaluate("(document.getElementById('f-count')||{}).textContent")
        evaluate("""(function(){var s=document.getElementById('f-kind');if(!s)return;s.value='';s.dispatchEvent(new Event('change'));})()""")

    if kind == "compare":
        c = js("""JSON.stringify({baseUsed:document.querySelectorAll('#mem path.used.base').length,
          baseMarks:document.querySelectorAll('#mem .marks.base path').length,newMarks:document.querySelectorAll('#mem .marks:not(.base) path').length,
          causes:document.querySelectorAll('ol.causes > li.cause').length,causeMetrics:document.querySelectorAll('ol.causes li.cause li').length,
          bad:!!document.querySelector('#verdict.bad'),links:[].map.call(document.querySelectorAll('a[id^=link-]'),function(a){return a.getAttribute('href');})})""") or {}
        counts.update(c)
        if c.get("baseUsed", 0) < 1: problems.append("compare chart does not overlay the base run")
        if c.get("bad") and c.get("causes", 0) < 1: problems.append("regressions are not grouped by cause")
        for href in c.get("links", []):
            if not os.path.exists(os.path.join(os.path.dirname(os.path.abspath(path)), urllib.parse.unquote(href))):
                problems.append(f"link to a report.html that does not exist: {href}")
        # One app on demand: its base and new lines only.
        shown = js("""(function(){var s=document.getElementById('mem-app');if(!s||s.options.length<2)return null;s.value=s.options[1].value;s.dispatchEvent(new Event('change'));
          var r={stack:document.querySelector('#mem .stack').getAttribute('visibility'),lines:document.querySelectorAll('#mem .appline[visibility=visible] path').length};
          s.value='';s.dispatchEvent(new Event('change'));return JSON.stringify(r);})()""")
        counts["oneApp"] = shown
        if shown and (shown["stack"] != "hidden" or shown["lines"] < 1): problems.append(f"choosing one app did not show its lines ({shown})")
        # The differential flame graph has no empty band above it: its top row holds a box.
        bands = js("""JSON.stringify([].map.call(document.querySelectorAll('svg.flame'),function(s){var ys=[].map.call(s.querySelectorAll('rect'),function(r){return +r.getAttribute('y');});
          return ys.length?Math.min.apply(null,ys):-1;}))""") or []
        if any(b > 0 for b in bands): problems.append(f"empty band above a differential flame graph (top row at y {bands})")
        counts["flameTop"] = bands

    # Flame graphs: click zooms and selects; memprof's own frames are hidden until asked;
    # focus on / hide a function.
    if kind in ("report", "compare") and evaluate("document.querySelectorAll('svg.flame g.fb').length"):
        f = js("""(function(){var svg=document.querySelector('svg.flame');function names(){return [].map.call(document.querySelectorAll('svg.flame g.fb'),function(g){return g.__b?g.__b.name:g.textContent;});}
          var G=svg.__g,all=document.getElementById('flame-all');var own=G.boxes.filter(function(b){return /WorkerThread|SamplingSession|NSThreadStart|partial apply|protocol witness/.test(b.name);}).length;
          all.checked=true;all.dispatchEvent(new Event('change'));var ownShown=svg.__g.boxes.filter(function(b){return /WorkerThread|SamplingSession|NSThreadStart|partial apply|protocol witness/.test(b.name);}).length;
          var F=JSON.parse(document.getElementById('memprof-data').textContent).flame,hideable=F.thunk.some(Number)||F.graphs.some(function(g){return g.stacks.some(function(st){return st[1]>0;});});
          all.checked=false;all.dispatchEvent(new Event('change'));G=svg.__g;
          var i=-1;for(var k=0;k<G.boxes.length;k++){var b=G.boxes[k];if(b.d>0&&b.n<G.root.n*0.8&&b.n>G.root.n*0.02){i=k;break;}}
          if(i<0)return JSON.stringify({boxes:G.boxes.length,own:own,ownShown:ownShown,hideable:hideable});
          var b=G.boxes[i],g=svg.querySelector('g.fb[data-i="'+i+'"]'),before=+g.querySelector('rect').getAttribute('width');
          g.querySelector('rect').dispatchEvent(new MouseEvent('click',{bubbles:true}));
          var g2=svg.querySelector('g.fb[data-i="'+i+'"]'),after=g2?+g2.querySelector('rect').getAttribute('width'):0;
          document.getElementById('flame-focus').click();var roots=svg.__g.boxes.filter(function(x){return x.d===0;}).map(function(x){return x.name;});
          document.getElementById('flame-hide').click();var still=svg.__g.boxes.filter(function(x){return x.name===b.name;}).length;
          document.getElementById('flame-reset').click();document.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}));
          var s=document.getElementById('flame-search');s.value=b.name.slice(0,6);s.dispatchEvent(new Event('input'));var found=document.getElementById('flame-found').textContent;
          s.value='';s.dispatchEvent(new Event('input'));
          return JSON.stringify({boxes:G.boxes.length,own:own,ownShown:ownShown,hideable:hideable,name:b.name,before:before,after:after,focusRoots:roots,afterHide:still,search:found});})()""")
        counts["flame"] = f
        if f.get("boxes", 0) < 1: problems.append("flame graph drew no boxes")
        if f.get("own"): problems.append(f"memprof's own frames are shown by default ({f['own']} boxes)")
        if f.get("hideable") and not f.get("ownShown"): problems.append("the toggle did not show memprof's own frames and thunks")
        if "after" in f:
            if f["after"] <= f["before"]: problems.append("clicking a flame box did not zoom")
            if f["focusRoots"] != [f["name"]]: problems.append(f"focus on {f['name']!r} did not make it the root ({f['focusRoots']})")
            if f["afterHide"]: problems.append(f"hide {f['name']!r} left it in the graph")
            if "match" not in f["search"]: problems.append("flame search found nothing")
            if re.search(r"\bMemprofSampler\.|\bSwift\.|^static ", f["name"]): problems.append(f"frame name not shortened: {f['name']!r}")

    # Verdict text and table text meet WCAG AA in both themes.
    contrast_report = []
    for scheme in ("light", "dark"):
        browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session=session)
        items = js(TEXT_COLOURS_JS + "('.verdict, .verdict-text, ol.causes li, .hint, #summary .card small, .legend li, td, .lvlab')") or []
        worst = None
        for item in items:
            ratio = contrast(parse_color(item["color"]), effective_background(item["bg"]))
            if worst is None or ratio < worst[0]:
                worst = (ratio, item["text"])
            if ratio < CONTRAST_MIN:
                problems.append(f"{scheme}: text {item['text']!r} has contrast {ratio:.2f} < {CONTRAST_MIN}")
        if worst:
            contrast_report.append(f"{scheme} min {worst[0]:.2f} ({worst[1][:20]!r})")
    counts["contrast"] = ", ".join(contrast_report)

    if kind not in ("report", "compare", "check") and evaluate("!!document.getElementById('fleet')"):
        # fleet.html (memprof sweep): the heatmap, a histogram per metric and cell, the worst seeds.
        counts.update(json.loads(evaluate("""JSON.stringify({
          heat: document.querySelectorAll('#heatmap td.h').length,
          shaded: Array.from(document.querySelectorAll('#heatmap td.h')).filter(function(td){
            return getComputedStyle(td).backgroundColor !== 'rgba(0, 0, 0, 0)';}).length,
          figures: document.querySelectorAll('figure.dist').length,
          bars: document.querySelectorAll('figure.dist rect.bar').length,
          barTitles: document.querySelectorAll('figure.dist rect.bar title').length,
          families: document.querySelectorAll('section.family').length,
          worst: document.querySelectorAll('#worst tbody tr').length,
          replay: (document.querySelector('#worst code')||{}).textContent||''})""") or "{}"))
        if counts.get("heat", 0) < 1: problems.append("eviction heatmap is empty")
        if counts.get("shaded", 0) < counts.get("heat", 0) - counts.get("heat", 0) // 2: problems.append("heatmap cells are not shaded")
        if counts.get("figures", 0) < 5: problems.append("too few metric distributions drawn")
        if counts.get("bars", 0) < counts.get("figures", 0): problems.append("distributions drew no bars")
        if counts.get("barTitles") != counts.get("bars"): problems.append("histogram bars lack their values")
        if counts.get("families", 0) < 3: problems.append("too few metric families")
        if "memprof run" not in counts.get("replay", ""): problems.append("worst seeds have no replay line")
    elif kind == "calibration":
        # calibration.html (memprof calibrate): the outcome, the parameters and their profiles,
        # field against simulation for every cell and counter, the path of the search.
        counts.update(json.loads(evaluate("""JSON.stringify({
          outcome: (document.querySelector('#outcome b')||{}).textContent||'',
          parameters: document.querySelectorAll('#parameters tbody tr').length,
          profiles: document.querySelectorAll('figure.profile circle').length,
          cells: document.querySelectorAll('#cells h3').length,
          statistics: document.querySelectorAll('#cells table.stats tbody tr').length,
          fieldBars: document.querySelectorAll('#cells svg.bars line.field').length,
          simBars: document.querySelectorAll('#cells svg.bars line.sim').length,
          points: document.querySelectorAll('#search circle.point').length,
          evaluations: document.querySelectorAll('#evaluations tbody tr').length,
          drawn: Array.from(document.querySelectorAll('#search circle.point')).filter(function(c){
            var b=c.getBoundingClientRect();return b.width>0&&b.height>0;}).length})""") or "{}"))
        if counts.get("outcome") not in ("fit", "no fit", "budget spent"): problems.append(f"no outcome ({counts.get('outcome')!r})")
        if counts.get("parameters", 0) < 1: problems.append("no fitted parameter listed")
        if counts.get("profiles", 0) < 2: problems.append("no parameter profile drawn")
        if counts.get("cells", 0) < 1 or counts.get("statistics", 0) < counts.get("cells", 0): problems.append("no cell's statistics")
        if counts.get("simBars") != counts.get("statistics"): problems.append("a statistic has no simulated interval drawn")
        if counts.get("fieldBars", 0) < 1: problems.append("no field interval drawn")
        if counts.get("points", 0) < 1 or counts.get("points") != counts.get("evaluations"): problems.append("the search path does not show every evaluation")
        if counts.get("drawn") != counts.get("points"): problems.append("search points are not visible")
    elif kind not in ("report", "compare", "check"):
        counts.update(json.loads(evaluate("JSON.stringify({runs: document.querySelectorAll('#runs tbody tr').length})") or "{}"))
        if counts.get("runs", 0) < 1: problems.append("index lists no runs")

    # Screenshots, light and dark, at 1400 and 390 px, of the whole page.
    evaluate("window.scrollTo(0,0)")
    mouse("mouseMoved", 2, 2)
    evaluate("document.getElementById('tip')&&(document.getElementById('tip').hidden=true)")
    shots = []
    for width in (1400, 390):
        for scheme in ("light", "dark"):
            browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session=session)
            browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": 1000, "deviceScaleFactor": 1,
                                                                "mobile": width < 600}, session=session)
            height = evaluate("Math.ceil(document.documentElement.scrollHeight)") or 1000
            browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": min(int(height), 8000),
                                                                "deviceScaleFactor": 1, "mobile": width < 600}, session=session)
            if width < 600 and kind in ("report", "compare", "check"):
                wide = evaluate("document.documentElement.scrollWidth")
                if wide and wide > width + 1:
                    culprit = evaluate("""(function(){var w=null,r=0;[].forEach.call(document.querySelectorAll('body *'),function(e){
                      if(e.closest('.scroll,.hscroll,.chart-wrap'))return;var b=e.getBoundingClientRect().right;if(b>r){r=b;w=e.tagName+'#'+e.id+'.'+e.getAttribute('class');}});return w+' '+Math.round(r);})()""")
                    problems.append(f"page is wider than the screen at {width} px ({wide} px; widest: {culprit})")
            shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
            file = os.path.join(outdir, f"{name}-{width}-{scheme}.png")
            with open(file, "wb") as fh:
                fh.write(base64.b64decode(shot["data"]))
            shots.append(file)

    # Drain what arrived and judge it.
    try:
        browser.call("Runtime.evaluate", {"expression": "1"}, session=session)
    except Exception as e:
        problems.append(str(e))
    requests = []
    for e in browser.events:
        if e.get("sessionId") != session:
            continue
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            problems.append("console error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
        elif m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            problems.append("uncaught exception: " + str(d.get("exception", {}).get("description", d.get("text"))))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            problems.append("log error: " + p["entry"].get("text", ""))
        elif m == "Network.requestWillBeSent":
            u = p.get("request", {}).get("url", "")
            requests.append(u)
            if not (u.startswith("file:") or u.startswith("data:") or u.startswith("about:")):
                problems.append("network request: " + u)
    browser.events.clear()
    browser.call("Target.closeTarget", {"targetId": target})
    size = os.path.getsize(path)
    dom_ms = timing.get("domContentLoadedEventEnd", 0)
    load_event = timing.get("loadEventEnd", 0)
    print(f"{'FAIL' if problems else 'ok  '} {path}: {size/1024:.0f} KB, load {load_ms:.0f} ms "
          f"(DOMContentLoaded {dom_ms:.0f} ms, load event {load_event:.0f} ms, script ready {ready_ms:.0f} ms), "
          f"requests {len(requests)} (all file:), screenshots {', '.join(shots)}")
    for k, v in counts.items():
        print(f"       {k}: {v}")
    for p in problems:
        print(f"       problem: {p}")
    return not problems

def main():
    if len(sys.argv) < 3:
        print(__doc__); return 2
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    browser = Browser()
    ok = True
    try:
        for page in sys.argv[2:]:
            ok = check_page(browser, page, outdir) and ok
    finally:
        browser.close()
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
