/// xnu-11417's reaper (``XNUSettings/reaperThresholdFraction``): while available memory is under
/// its threshold, every process that has been in the idle band for 300 s or more is killed
/// (`long-idle-exit`), oldest in the band first, and the reaper then waits 30 s before it looks
/// again.
///
/// What xnu does, at xnu-11417.121.6 bsd/kern/kern_memorystatus.c (`c`) and
/// kern_memorystatus_policy.c (`p`):
/// - a sweep starts when the rescan delay since the last one has passed, available memory is
///   under the reaper threshold and the oldest reapable process has been idle long enough
///   (c:4242-4262);
/// - a process is reapable in a band up to `JETSAM_PRIORITY_IDLE` (c:314, c:6704) after
///   `memstat_reaper_min_age_secs` (300 s, c:313) in its band (`p_memstat_prio_start`, c:6711-6712)
///   unless its relaunch probability is high or medium (c:6719-6730; unknown is reaped, c:318-319):
///   launchd's record of how soon it relaunched the process after its kills (``RelaunchBehaviour``;
///   apps, and daemons never relaunched, are unknown);
/// - the jetsam thread kills one reapable process after another while the system is healthy
///   (p:218-224), walking the idle band in its order (`memorystatus_do_priority_kill` with
///   `only_long_idle`, c:4704-4706), until none is left, which ends the sweep (c:6612-6617) and
///   sets the next possible start `memstat_reaper_rescan_secs` (30 s, c:315) later (c:4159-4160).
///
/// memprof looks after every occurrence while available memory is under the threshold, at most
/// every 30 s: a look that finds nothing reapable waits the 30 s that xnu keeps its scan of the
/// oldest reapable process for (c:6644-6688). The kills take no jetsam snapshot (idle priority,
/// ``ExitReason/isIdleKill``). O(apps + processes) per look.
extension Simulator {
    mutating func runReaper() {
        guard let x = policy.settings.xnu, let minIdle = x.reaperMinIdleUs else { return }
        reaperNextUs = now + (x.reaperRescanUs ?? 0)
        // Reapable now: in the idle band for `minIdle` or more, oldest in the band first.
        var reapable: [(since: Microseconds, snapshotIndex: Int)] = []
        for j in apps.indices where apps[j].state == .suspended {
            let c = policyCandidate(j)
            if c.band == x.idleBand, now - c.bandSinceUs >= minIdle { reapable.append((c.bandSinceUs, j)) }
        }
        for k in processes.indices where processes[k].alive && processes[k].spec.band == x.idleBand
            && processes[k].relaunch.isReapable {
            if now - processes[k].bandSinceUs >= minIdle { reapable.append((processes[k].bandSinceUs, apps.count + k)) }
        }
        reapable.sort { ($0.since, $0.snapshotIndex) < ($1.since, $1.snapshotIndex) }
        for (_, j) in reapable {
            if j >= apps.count {
                killProcess(j - apps.count, .longIdleExit)
            } else {
                summary.evictions += 1
                apps[j].stats.evictions += 1
                record(.eviction(bytes: apps[j].footprint), j)
                kill(j, .longIdleExit, requested: nil, evicted: true)
            }
        }
    }
}
