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
}
