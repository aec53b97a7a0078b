#!/usr/bin/env python3
"""Runs the N shards of a memprof sweep as tasks of a Dask distributed cluster, then merges them.

Each task runs `memprof sweep SWEEP --shard K/N` on a worker, in a scratch folder of its own,
and returns the shard's files (fleet.json, runs.csv) to this client, so workers need no shared
file system; a failed task is retried by Dask. The client writes the shards under OUT/shards/
and runs `memprof merge` into OUT, which then equals the single-machine sweep byte for byte
(except fleet.json's host). Dask does the scheduling, retries and transport: nothing here is a
scheduler, queue or protocol of our own.

usage:
  fleet_dask.py SWEEP --shards N --out DIR --scheduler-file FILE   (a running cluster)
  fleet_dask.py SWEEP --shards N --out DIR --scheduler tcp://HOST:PORT
  fleet_dask.py SWEEP --shards N --out DIR --local-workers W       (a LocalCluster on 127.0.0.1)
options: --memprof PATH (default: memprof on PATH, as the workers see it), --threads T (per shard),
         --set KEY=VALUE (repeatable, passed to every shard)
"""
import argparse, os, shutil, subprocess, sys, tempfile


def run_shard(memprof, sweep_text, sweep_name, k, n, threads, sets):
    """On a worker: one shard in a scratch folder; returns its files as bytes. Without text,
    `sweep_name` is a built-in sweep, which every worker's memprof knows by name."""
    work = tempfile.mkdtemp(prefix=f"memprof-shard-{k}-of-{n}-")
    try:
        sweep = sweep_name
        if sweep_text is not None:
            sweep = os.path.join(work, sweep_name)
            with open(sweep, "w") as f:
                f.write(sweep_text)
        out = os.path.join(work, "out")
        args = [memprof, "sweep", sweep, "--shard", f"{k}/{n}", "--out", out]
        if threads:
            args += ["--threads", str(threads)]
        for s in sets:
            args += ["--set", s]
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"shard {k}/{n}: memprof exited {done.returncode}: {done.stderr.strip()}")
        files = {}
        for name in ("fleet.json", "runs.csv"):
            with open(os.path.join(out, name), "rb") as f:
                files[name] = f.read()
        return k, files
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sweep")
    p.add_argument("--shards", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--scheduler")
    p.add_argument("--scheduler-file")
    p.add_argument("--local-workers", type=int)
    p.add_argument("--memprof", default=shutil.which("memprof") or "memprof")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--set", action="append", default=[])
    a = p.parse_args()
    if a.shards < 1:
        p.error("--shards must be at least 1")
    import dask
    from dask.distributed import Client, LocalCluster, as_completed

    # A sweep file is sent to the workers as text; a workload path in it must exist on the
    # workers (built-in workloads and sweeps always do).
    if os.path.exists(a.sweep):
        with open(a.sweep) as f:
            sweep_text, sweep_name = f.read(), os.path.basename(a.sweep)
    else:
        sweep_text, sweep_name = None, a.sweep
    cluster = None
    scratch = None
    if a.scheduler_file:
        client = Client(scheduler_file=a.scheduler_file)
    elif a.scheduler:
        client = Client(a.scheduler)
    else:
        # The local workers' scratch space goes in a folder of this run's, removed at the end.
        scratch = tempfile.mkdtemp(prefix="memprof-dask-")
        dask.config.set({"temporary-directory": scratch})
        cluster = LocalCluster(n_workers=a.local_workers or os.cpu_count(), threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None, local_directory=scratch)
        client = Client(cluster)
    try:
        workers = len(client.scheduler_info()["workers"])
        print(f"fleet_dask: {a.shards} shards on {workers} Dask workers ({client.scheduler.address})", flush=True)
        futures = [client.submit(run_shard, a.memprof, sweep_text, sweep_name, k, a.shards, a.threads, a.set,
                                 key=f"memprof-shard-{k}-of-{a.shards}", retries=2, pure=False)
                   for k in range(1, a.shards + 1)]
        shards_dir = os.path.join(a.out + ".shards")
        shutil.rmtree(shards_dir, ignore_errors=True)
        parts = []
        for future in as_completed(futures):
            k, files = future.result()
            d = os.path.join(shards_dir, f"shard-{k}-of-{a.shards}")
            os.makedirs(d, exist_ok=True)
            for name, data in files.items():
                with open(os.path.join(d, name), "wb") as f:
                    f.write(data)
            parts.append(d)
            print(f"fleet_dask: shard {k}/{a.shards} done ({len(parts)} of {a.shards})", flush=True)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    merged = subprocess.run([a.memprof, "merge", *sorted(parts), "--out", a.out])
    if merged.returncode == 0:
        shutil.rmtree(shards_dir, ignore_errors=True)
    return merged.returncode


if __name__ == "__main__":
    sys.exit(main())
