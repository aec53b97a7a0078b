#!/usr/bin/env python3
"""Opens memprof HTML pages in headless Chromium over the DevTools protocol and checks them.

For each page: no console error, no uncaught exception, no log entry of level error, and no
network request other than file:, data: and about: URLs; the charts drew (SVG elements with
data); hover shows a tooltip and a drag on the memory chart zooms the swimlanes. Saves light and
dark PNG screenshots and prints the load time. Standard library only (its own small WebSocket
client), so it needs nothing from PyPI.

usage: browser_check.py OUTDIR PAGE.html [PAGE.html ...]   (exit 1 on any failure)
"""
import base64, json, os, re, shutil, socket, struct, subprocess, sys, tempfile, time, urllib.parse

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
        self.proc = subprocess.Popen([exe, "--headless=new", "--no-sandbox", "--disable-gpu",
                                      "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                                      f"--user-data-dir={self.profile}", "--no-first-run",
                                      "--disable-background-networking", "--disable-component-update",
                                      "--disable-sync", "--disable-default-apps", "--allow-file-access-from-files",
                                      "about:blank"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
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

    def close(self):
        try:
            self.proc.terminate(); self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

def check_page(browser, path, outdir):
    problems = []
    name = os.path.basename(os.path.dirname(os.path.abspath(path))) + "-" + os.path.splitext(os.path.basename(path))[0]
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(f"{domain}.enable", session=session)
    browser.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 1000, "deviceScaleFactor": 1,
                                                        "mobile": False}, session=session)
    browser.events.clear()
    url = "file://" + urllib.parse.quote(os.path.abspath(path))
    started = time.time()
    browser.call("Page.navigate", {"url": url}, session=session)
    browser.wait_for("Page.loadEventFired")
    load_ms = (time.time() - started) * 1000

    def evaluate(expr):
        r = browser.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
        if "exceptionDetails" in r:
            problems.append(f"evaluate failed: {expr}: {r['exceptionDetails'].get('text')}")
            return None
        return r["result"].get("value")

    nav = evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0]||{})")
    timing = json.loads(nav or "{}")
    is_report = evaluate("!!document.getElementById('mem')")
    if is_report:
        counts = evaluate("""JSON.stringify({
          areas: document.querySelectorAll('#mem path.area').length,
          used: (document.querySelector('#mem path.used')||{getAttribute(){return ''}}).getAttribute('d').length,
          lanes: document.querySelectorAll('#lanesvg rect[class^="s-"]').length,
          marks: document.querySelectorAll('#lanesvg line.mk').length,
          ready: document.documentElement.getAttribute('data-ready'),
          axis: document.querySelectorAll('#laneaxis span').length,
          rows: document.querySelectorAll('#atable tbody tr').length,
          bytes: document.documentElement.outerHTML.length})""")
        counts = json.loads(counts or "{}")
        if counts.get("areas", 0) < 1: problems.append("memory chart drew no stacked area")
        if counts.get("used", 0) < 10: problems.append("memory chart drew no used line")
        if counts.get("lanes", 0) < 1: problems.append("swimlanes drew no state")
        if counts.get("ready") != "1": problems.append("page script did not finish")
        if counts.get("rows", 0) < 1: problems.append("per-app table is empty")
        # Hover the memory chart: a tooltip with values appears.
        box = json.loads(evaluate("JSON.stringify(document.getElementById('hit').getBoundingClientRect())"))
        browser.call("Runtime.evaluate", {"expression": "window.scrollTo(0,0)"}, session=session)
        box = json.loads(evaluate("JSON.stringify(document.getElementById('hit').getBoundingClientRect())"))
        y = box["top"] + box["height"] * 0.5
        x0, x1 = box["left"] + box["width"] * 0.30, box["left"] + box["width"] * 0.55
        browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y}, session=session)
        tip = evaluate("document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent")
        if not tip or "used" not in tip: problems.append(f"hover on the memory chart showed no values ({tip!r})")
        counts["tip"] = tip
        # Drag across it: the swimlanes zoom to the range.
        before = evaluate("document.getElementById('lanesvg').getAttribute('viewBox')")
        browser.call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y, "button": "left", "clickCount": 1}, session=session)
        for i in range(1, 6):
            browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0 + (x1 - x0) * i / 5, "y": y, "button": "left"}, session=session)
        browser.call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y, "button": "left", "clickCount": 1}, session=session)
        after = evaluate("document.getElementById('lanesvg').getAttribute('viewBox')")
        label = evaluate("document.getElementById('range').textContent")
        if before == after: problems.append("dragging on the memory chart did not zoom the swimlanes")
        counts["zoom"] = f"{before} -> {after} ({label})"
        # Hover a lane segment: its state shows.
        seg = evaluate("""(function(){var r=document.querySelector('#lanesvg rect.s-active')||document.querySelector('#lanesvg rect[class^="s-"]');
          if(!r)return null;var b=r.getBoundingClientRect();return JSON.stringify({x:b.left+Math.min(b.width/2,3),y:b.top+b.height/2,w:b.width});})()""")
        browser.call("Runtime.evaluate", {"expression": "document.getElementById('reset').click()"}, session=session)
        seg = evaluate("""(function(){var rs=document.querySelectorAll('#lanesvg rect[class^="s-"]');var best=null,bw=0;
          for(var i=0;i<rs.length;i++){var b=rs[i].getBoundingClientRect();if(b.width>bw){bw=b.width;best=b;}}
          return best?JSON.stringify({x:best.left+best.width/2,y:best.top+best.height/2}):null;})()""")
        if seg:
            p = json.loads(seg)
            evaluate(f"window.scrollTo(0, {max(0, p['y'] - 400)})")
            seg = json.loads(evaluate("""(function(){var rs=document.querySelectorAll('#lanesvg rect[class^="s-"]');var best=null,bw=0;
              for(var i=0;i<rs.length;i++){var b=rs[i].getBoundingClientRect();if(b.width>bw){bw=b.width;best=b;}}
              return JSON.stringify({x:best.left+best.width/2,y:best.top+best.height/2});})()"""))
            browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": seg["x"], "y": seg["y"]}, session=session)
            lane_tip = evaluate("document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent")
            if not lane_tip or "from" not in lane_tip: problems.append(f"hover on a lane showed no state ({lane_tip!r})")
            counts["laneTip"] = lane_tip
        # Filter the decisions by kind.
        evaluate("""(function(){var s=document.getElementById('f-kind');if(!s)return;s.value='compression';s.dispatchEvent(new Event('change'));})()""")
        counts["filter"] = evaluate("(document.getElementById('f-count')||{}).textContent")
        evaluate("""(function(){var s=document.getElementById('f-kind');if(!s)return;s.value='';s.dispatchEvent(new Event('change'));})()""")
        # Flame graphs, when the report has samples: a click zooms into a box.
        flame = evaluate("""(function(){var svg=document.querySelector('svg.flame');if(!svg)return null;
          var gs=svg.querySelectorAll('g.fb');var g=null;for(var i=0;i<gs.length;i++){var w=+gs[i].querySelector('rect').getAttribute('width');if(w>20&&w<700){g=gs[i];break;}}
          if(!g)return JSON.stringify({boxes:gs.length});
          var before=g.querySelector('rect').getAttribute('width');
          g.querySelector('rect').dispatchEvent(new MouseEvent('click',{bubbles:true}));
          var after=g.querySelector('rect').getAttribute('width');
          document.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}));
          return JSON.stringify({boxes:gs.length,before:before,after:after});})()""")
        if flame:
            f = json.loads(flame)
            counts["flame"] = f
            if f.get("boxes", 0) < 1: problems.append("flame graph drew no boxes")
            if "after" in f and float(f["after"]) <= float(f["before"]): problems.append("clicking a flame box did not zoom")
        evaluate("window.scrollTo(0,0)")
        browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 5, "y": 5}, session=session)
    elif evaluate("!!document.getElementById('fleet')"):
        # fleet.html (memprof sweep): the heatmap, a histogram per metric and cell, the worst seeds.
        counts = json.loads(evaluate("""JSON.stringify({
          heat: document.querySelectorAll('#heatmap td.h').length,
          shaded: Array.from(document.querySelectorAll('#heatmap td.h')).filter(function(td){
            return getComputedStyle(td).backgroundColor !== 'rgba(0, 0, 0, 0)';}).length,
          figures: document.querySelectorAll('figure.dist').length,
          bars: document.querySelectorAll('figure.dist rect.bar').length,
          barTitles: document.querySelectorAll('figure.dist rect.bar title').length,
          families: document.querySelectorAll('section.family').length,
          worst: document.querySelectorAll('#worst tbody tr').length,
          replay: (document.querySelector('#worst code')||{}).textContent||''})""") or "{}")
        if counts.get("heat", 0) < 1: problems.append("eviction heatmap is empty")
        if counts.get("shaded", 0) < counts.get("heat", 0) - counts.get("heat", 0) // 2: problems.append("heatmap cells are not shaded")
        if counts.get("figures", 0) < 5: problems.append("too few metric distributions drawn")
        if counts.get("bars", 0) < counts.get("figures", 0): problems.append("distributions drew no bars")
        if counts.get("barTitles") != counts.get("bars"): problems.append("histogram bars lack their values")
        if counts.get("families", 0) < 3: problems.append("too few metric families")
        if "memprof run" not in counts.get("replay", ""): problems.append("worst seeds have no replay line")
    else:
        counts = json.loads(evaluate("JSON.stringify({runs: document.querySelectorAll('#runs tbody tr').length})") or "{}")
        if counts.get("runs", 0) < 1: problems.append("index lists no runs")

    # Screenshots, light and dark, of the whole page.
    height = evaluate("Math.ceil(document.documentElement.scrollHeight)") or 1000
    shots = []
    for scheme in ("light", "dark"):
        browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session=session)
        browser.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": min(int(height), 6000),
                                                            "deviceScaleFactor": 1, "mobile": False}, session=session)
        shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
        file = os.path.join(outdir, f"{name}-{scheme}.png")
        with open(file, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
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
          f"(DOMContentLoaded {dom_ms:.0f} ms, load event {load_event:.0f} ms), requests {len(requests)} "
          f"(all file:), screenshots {', '.join(shots)}")
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
