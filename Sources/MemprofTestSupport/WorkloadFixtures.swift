/// Workloads several suites run, written once.
public enum WorkloadFixtures {
    /// A 1 GB phone under `xnu` on iOS 14.2 with processes that are not apps: three apps that keep
    /// their footprints in RAM (ratio 1), a system process, a daemon with a high-water mark and an
    /// idle widget extension. 30 s: wifianalyticsd, 7 MB over its 6 MB mark, dies under pressure
    /// (`highwater`); 40 s: maps needs 100 MB more and the idle band goes first, NewsTag (a process,
    /// band 0, there from the start) before mail.
    public static let processes = """
        memprof: 1
        name: processes
        duration: 2m
        device: {ram: 1GB, systemReserved: 300MB, appLimit: 645MB, flash: 256MB, flashReadRate: 200MB/s, pageSize: 4KB, osVersion: iOS 14.2 (18B92)}
        policy: xnu
        apps:
          mail: {launch: {footprint: 200MB}, compressionRatio: 1}
          safari: {launch: {footprint: 250MB}, compressionRatio: 1}
          maps: {launch: {footprint: 200MB}, compressionRatio: 1}
        processes:
          backboardd: {kind: system, band: 12, resident: 24MB}
          wifi: {name: wifianalyticsd, kind: daemon, band: 1, resident: 5MB, highWaterMark: 6MB}
          widget: {name: NewsTag, kind: extension, band: 0, resident: 10MB}
        script:
          - {at: 0s, open: mail}
          - {at: 10s, open: safari}
          - {at: 20s, allocate: wifi, size: 2MB}
          - {at: 30s, open: maps}
          - {at: 40s, allocate: maps, size: 100MB}

        """

    /// `news` submits a refresh request (earliest 15 m, a 45 s handler: past the 30 s window) and
    /// a processing request (earliest 30 m, 20 m of work, on external power) when it enters the
    /// background at 10 s. The phone charges from 1 h to 1 h 30 m and from 2 h to 2 h 10 m; the
    /// user opens the game at 20 m (home at 25 m) and at 1 h 10 m (home at 1 h 12 m).
    public static let scheduledTasks = """
        memprof: 1
        name: scheduled
        duration: 3h
        device: {preset: iphone-15, osVersion: "iOS 18.5 (22F76)"}
        policy: xnu
        population: none
        charging:
          - {from: 1h, to: 1h30m}
          - {from: 2h, to: 2h10m}
        apps:
          news:
            launch: {footprint: 150MB}
            modes: [fetch, processing]
            refresh: {earliest: 15m, time: 45s, allocates: 10MB}
            processing: {earliest: 30m, time: 20m, allocates: 60MB, requiresExternalPower: true}
          game:
            launch: {footprint: 300MB}
        script:
          - {at: 0s, open: news}
          - {at: 10s, home: true}
          - {at: 20m, open: game}
          - {at: 25m, home: true}
          - {at: 1h10m, open: game}
          - {at: 1h12m, home: true}
        """
}
