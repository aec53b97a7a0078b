#!/usr/bin/env python3
"""Writes a large workload for the benchmarks (scripts/bench.sh): N apps, a long duration and a
scripted switch every few minutes, with fetch, push and background tasks, so memory is under
pressure all the time.

    scripts/gen-workload.py --apps 50 --hours 450 --switches 100000 > big.yaml
    scripts/gen-workload.py --apps 50 --days 7 --switches 37333 > week.yaml   # same pace, 7 days
    scripts/gen-workload.py --work checksum:256KB > sampled.yaml   # real work in every handler, sampled

Deterministic: the same arguments give the same file (a fixed seed of Python's `random`).
"""
import argparse
import random


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--apps", type=int, default=50)
    p.add_argument("--hours", type=float)
    p.add_argument("--days", type=float)
    p.add_argument("--switches", type=int, default=100_000, help="scripted app switches over the run")
    p.add_argument("--name", default="big")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--work", metavar="KERNEL:SIZE",
                   help="real work for every fetch, push and background task (sampled when memprof runs it)")
    a = p.parse_args()
    work = ""
    if a.work:
        kernel, _, size = a.work.partition(":")
        work = f", work: {{kernel: {kernel}, size: {size or '1MB'}}}"
    hours = a.hours if a.hours is not None else (a.days * 24 if a.days is not None else 450)
    rng = random.Random(a.seed)
    duration_s = int(hours * 3600)
    out = [f"memprof: 1", f"name: {a.name}", "seed: 1", f"duration: {int(hours)}h" if hours == int(hours)
           else f"duration: {duration_s}s", "device: iphone-6-plus", "apps:"]
    for i in range(a.apps):
        fp = rng.randint(8, 220)
        out.append(f"  app{i}:")
        out.append(f"    launch: {{footprint: {fp}MB, time: {rng.randint(300, 3000)}ms}}")
        out.append(f"    growth: {rng.randint(0, 4)}MB/min")
        out.append(f"    maxFootprint: {fp + 80}MB")
        out.append(f"    onBackground: {{release: {fp // 3}MB, time: {rng.randint(0, 2000)}ms}}")
        out.append(f"    onMemoryWarning: {{release: {max(1, fp // 10)}MB}}")
        modes = []
        if i % 3 == 0:
            modes += ["fetch", "remote-notification"]
        if modes:
            out.append(f"    modes: [{', '.join(modes)}]")
        if i % 3 == 0:
            out.append(f"    fetch: {{interval: 15m, time: 4s, allocates: 4MB{work}}}")
            out.append(f"    push: {{time: 2s, allocates: 2MB{work}}}")
        if i % 4 == 0:
            ends = "true" if i % 8 == 0 else "false"
            out.append(f"    backgroundTask: {{time: {rng.randint(1, 15)}m, endsOnExpiration: {ends}, allocates: 10MB{work}}}")
    out.append("script:")
    step = duration_s / (a.switches + 1)
    t = 0.0
    pushable = [i for i in range(a.apps) if i % 3 == 0]
    for n in range(a.switches):
        t += step
        at = int(t)
        r = rng.random()
        if r < 0.80:
            out.append(f"  - {{at: {at}s, open: app{rng.randrange(a.apps)}}}")
        elif r < 0.92:
            out.append(f"  - {{at: {at}s, home: true}}")
        else:
            out.append(f"  - {{at: {at}s, push: app{rng.choice(pushable)}}}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
