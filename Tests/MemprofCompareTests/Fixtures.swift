import Foundation
import MemprofCompare
import MemprofCore
import MemprofReport
import MemprofReportReader

/// A small valid report (iphone-6-plus, policy seed-2015) with no apps, events or timeline; the
/// tests fill in what they need through the model's public properties.
let fixtureJSON = #"""
{
 "apps": {},
 "device": {
  "appLimit": 676331520,
  "cpuScale": 4,
  "flash": 268435456,
  "flashReadRate": 209715200,
  "name": "iphone-6-plus",
  "pageSize": 16384,
  "platform": "ios",
  "ram": 1073741824,
  "systemReserved": 314572800
 },
 "events": [],
 "host": {
  "generatedAt": "2025-01-01T00:00:00Z",
  "hostname": "test",
  "os": "Linux",
  "processedOccurrences": 1,
  "processors": 2,
  "simulationWallMs": 1.0
 },
 "jetsamEvents": [],
 "notifications": {
  "apps": {}
 },
 "policy": {
  "backgroundTaskLimitUs": 600000000,
  "compressionThreshold": 16777216,
  "criticalLevel": 0.95,
  "enterBackgroundLimitUs": 5000000,
  "evictionOrder": "lru",
  "fetchWindowUs": 30000000,
  "name": "seed-2015",
  "pushWindowUs": 30000000,
  "voipMinKeepaliveUs": 600000000,
  "warningLevel": 0.8
 },
 "run": {
  "durationUs": 10800000000,
  "seed": 7,
  "source": "builtin:fixture",
  "workload": "fixture",
  "workloadSha256": "c96a871f439ee1b9d4d98d1c19a39e54fe66a3528f044cbbc45e5b03f224dcbe"
 },
 "schema": "memprof.report/1",
 "summary": {
  "backgroundLaunches": 0,
  "backgroundTasks": {
   "completed": 10,
   "expiredEnded": 0,
   "expiredKilled": 0,
   "started": 10
  },
  "coldLaunches": 10,
  "coldRelaunchesAfterKill": 1,
  "compressedResumes": 19,
  "compressions": 26,
  "evictions": 1,
  "fetches": {
   "completed": 7,
   "started": 7,
   "timedOut": 0
  },
  "memoryWarnings": 7,
  "peakCompressedBytes": 42991616,
  "peakUsedBytes": 759151543,
  "pushes": {
   "completed": 2,
   "started": 2,
   "timedOut": 0
  },
  "terminations": {
   "backgroundTaskTimeout": 0,
   "badAccess": 0,
   "fetchTimeout": 0,
   "memoryLimit": 0,
   "memoryPressure": 1,
   "pushTimeout": 0,
   "userQuit": 2,
   "watchdog": 0
  },
  "timeAtPressureUs": {
   "critical": 344117789,
   "normal": 9119862110,
   "warning": 1336020101
  },
  "warmResumes": 20
 },
 "timeline": {
  "appBytes": {},
  "compressedBytes": [],
  "levels": [],
  "usedBytes": []
 },
 "tool": {
  "name": "memprof",
  "version": "0.1.0"
 }
}
"""#

/// A report of workload `workload` with apps `mail` and `maps` (all zero) unless `apps` says otherwise.
func makeReport(workload: String = "fixture", apps: [String] = ["mail", "maps"],
                _ configure: (inout Report) -> Void = { _ in }) -> Report {
    var report = try! ReportJSON.decode(Data(fixtureJSON.utf8))
    report.run.workload = workload
    report.summary = Summary()
    report.apps = Dictionary(uniqueKeysWithValues: apps.map { ($0, AppStats(name: $0.capitalized)) })
    configure(&report)
    return report
}

func row(_ c: Comparison, _ metric: String) -> MetricComparison? {
    c.metrics.first { $0.metric == metric }
}
