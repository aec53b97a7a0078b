import Foundation
import MemprofCore
import MemprofOutput
import MemprofProfile
import MemprofReport

/// What a run produced: its report's head, and every file of its report folder, rendered.
public struct RunArtifacts {
    /// The run's report but its events, jetsam snapshots and timeline (report.json holds them:
    /// they were written as the run went).
    public var head: ReportHead
    /// The stack files (with samples stacks.folded, and profile.speedscope.json), as written.
    public var files: [OutputFile]
    /// The stacks sampled while background work ran; nil when the workload names no work.
    public var profile: SamplingProfile?
    /// The workload's app ids in file order, as tables list them.
    public var orderedApps: [String]
    /// How the work was sampled.
    public var sampling: RunRequest.Sampling
    /// The names of every file written into the folder, in order: report.json, report.html,
    /// trace.json, then those of ``files``.
    public var fileNames: [String]

    public init(head: ReportHead, files: [OutputFile], profile: SamplingProfile?, orderedApps: [String],
                sampling: RunRequest.Sampling, fileNames: [String]) {
        self.head = head
        self.files = files
        self.profile = profile
        self.orderedApps = orderedApps
        self.sampling = sampling
        self.fileNames = fileNames
    }

    /// The short summary `memprof run` prints, with the paths of the files under `folder`.
    public func summary(folder: String) -> String {
        var lines = [TerminalSummary.render(head, orderedApps: orderedApps), ""]
        let labels = ["report.json": "report", "report.html": "html", "trace.json": "trace"]
        for name in fileNames {
            if let label = labels[name] { lines.append(Self.labelled(label, "\(folder)/\(name)")) }
        }
        if let line = profileLine { lines.append(line) }
        lines += programLines
        for name in fileNames where labels[name] == nil { lines.append(Self.labelled("stacks", "\(folder)/\(name)")) }
        return lines.joined(separator: "\n")
    }

    private static func labelled(_ label: String, _ text: String) -> String {
        label.padding(toLength: 11, withPad: " ", startingAt: 0) + text
    }

    /// One line per handler that ran a program (spec §8.1): its peak, its leak, how it ended.
    var programLines: [String] {
        (profile?.handlers ?? []).compactMap { handler in
            guard let program = handler.program, let allocations = handler.allocations else { return nil }
            let ending = (program.signal.map { "ended by \($0)" } ?? "exit \(program.exitStatus ?? 0)")
                + (program.timedOutRuns > 0 ? " (\(Format.count(program.timedOutRuns, "run")) killed at the window)" : "")
            return Self.labelled("program", "\(handler.app) \(handler.handler): \(handler.kernel), "
                + "\(Format.count(handler.runs, "run")), peak \(Format.bytes(allocations.peakBytes)) in use, "
                + "\(Format.bytes(allocations.leakedBytes)) held at exit over all runs, last \(ending)")
        }
    }

    /// One line about the profile for the terminal summary.
    var profileLine: String? {
        guard let profile else { return nil }
        if sampling == .unsampled {
            return "profile    work ran unsampled (--no-sampling); "
                + (profile.hasAllocations ? "allocations tracked" : "no stack files written")
        }
        guard profile.hasSamples else {
            let why = profile.notes.isEmpty ? "no samples were collected" : profile.notes.joined(separator: "; ")
            return "profile    \(why); no stack files written"
        }
        let s = profile.sampler
        return "profile    \(profile.sampleCount) samples at \(Int(s.achievedRateHz.rounded())) Hz (asked \(Int(s.requestedRateHz))), "
            + "\(s.droppedSamples) dropped, overhead \(String(format: "%.2f", s.overheadPercent))%"
    }
}
