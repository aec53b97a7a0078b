#!/usr/bin/env python3
"""The kills of a published jetsam report and of its replay, for scripts/bench-fidelity.sh.

  fidelity_kills.py expected REPORT                        -> "N"  (memory kills memprof models)
  fidelity_kills.py compare REPORT WORKLOAD REPORT_JSON    -> "K N FACTS"

Reads the report itself (.ips JSON, or the text LowMemory report of iOS 7 to 9), not what the
importer says of it. A modelled kill counts as reproduced when the run kills the same process for the same reason, in
the report's order (killDelta, else the order the report lists them): the report's modelled
kills are matched, in order, against the run's memory kills (report.json's jetsamEvents).
"""
import json
import re
import sys
from collections import Counter

MODELLED = {"vm-pageshortage": "memoryPressure", "per-process-limit": "memoryLimit", "highwater": "highwater"}


def processes(path):
    """[(name, reason or None, killDelta or None)] in the report's order."""
    text = open(path, encoding="utf-8").read()
    if text.lstrip().startswith("Incident Identifier:"):
        out = []
        in_table = False
        for line in text.splitlines():
            if line.strip() == "Processes":
                in_table = True
                continue
            m = re.match(r"^(.*?) <[0-9a-fA-F]{32}>(.*)$", line) if in_table else None
            if m:
                reason = re.search(r"\[([^\]]+)\]", m.group(2))
                out.append((m.group(1).strip(), reason.group(1) if reason else None, None))
        return out
    header, body = text.split("\n", 1)
    return [(p["name"], p.get("reason"), p.get("killDelta")) for p in json.loads(body)["processes"]]


def kills(path):
    procs = processes(path)
    killed = [(i, p) for i, p in enumerate(procs) if p[1]]
    if all(p[2] is not None for _, p in killed):
        killed.sort(key=lambda ip: (ip[1][2], ip[0]))
    return [(i, p[0], p[1]) for i, p in killed]


def workload_names(path):
    """Report name -> the names report.json gives, in order (an app's key; a process's name)."""
    names = {}
    lines = open(path, encoding="utf-8").read().splitlines()
    section = None
    for i, line in enumerate(lines):
        if re.match(r"^[a-z]", line):
            section = line.split(":")[0]
            continue
        if section == "apps":
            m = re.match(r"^  ([a-z0-9-]+):$", line)
            if m and i + 1 < len(lines):
                n = re.match(r'^    name: (".*")$', lines[i + 1])
                if n:
                    names.setdefault(decode(n.group(1)), []).append(m.group(1))
        elif section == "processes":
            m = re.match(r'^  ([a-z0-9-]+): \{name: ("(?:[^"\\]|\\.)*"|[a-z0-9-]+),', line)
            if m:
                name = decode(m.group(2)) if m.group(2).startswith('"') else m.group(2)
                names.setdefault(name, []).append(name)
    return names


def decode(quoted):
    return json.loads(re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: "\\u00" + m.group(1), quoted))


def main():
    mode, report = sys.argv[1], sys.argv[2]
    all_kills = kills(report)
    modelled = [k for k in all_kills if k[2] in MODELLED]
    facts = Counter(k[2] for k in all_kills if k[2] not in MODELLED)
    facts_text = ",".join(f"{r}_x{n}" for r, n in sorted(facts.items())) or "-"
    if mode == "expected":
        print(len(modelled))
        return
    workload, report_json = sys.argv[3], sys.argv[4]
    names = workload_names(workload)
    # The n-th process of a name in the report is the n-th entry of that name in the workload.
    seen = Counter()
    reported = {}
    for i, (name, _, _) in enumerate(processes(report)):
        candidates = names.get(name, [])
        reported[i] = candidates[seen[name]] if seen[name] < len(candidates) else None
        seen[name] += 1
    events = json.load(open(report_json, encoding="utf-8")).get("jetsamEvents", [])
    run = [(e["killed"], e["exitReason"]) for e in events
           if e["exitReason"] in MODELLED.values()]
    # In order: the report's kills matched against the run's as a subsequence.
    k, at = 0, 0
    for i, name, reason in modelled:
        want = (reported.get(i), MODELLED[reason])
        match = next((m for m in range(at, len(run)) if run[m] == want), None)
        if match is not None:
            k, at = k + 1, match + 1
    extra = len(run) - k
    print(k, len(modelled), facts_text + (f";_{extra}_kills_the_report_does_not_have" if extra else ""))


if __name__ == "__main__":
    main()
