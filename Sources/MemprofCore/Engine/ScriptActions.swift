/// Script actions (spec §2.1, §9): each goes to the lifecycle step it belongs to; the small ones
/// (`allocate`, `free`) are handled here.
///
/// Triggers: every `script` occurrence (the workload's script and its `generate` section).
extension Simulator {
    mutating func perform(_ action: ScriptAction) {
        if let why = platform.whyNotApplicable(action) { return ignored(action, why) }
        switch action {
        case .open(let i): open(i)
        case .home:
            guard let f = foreground else { return ignored(action, .homeScreenShowing) }
            leaveForeground(f, startsBackgroundWork: true)
        case .interrupt(let kind, let length, let answer): interrupt(kind, length, answer: answer, action)
        case .quit(let i): quit(i, action)
        case .push(let i): push(i)
        case .allocate(let i, let bytes):
            guard apps[i].state.runsCode else { return ignored(action, .runsNoCode(apps[i].state)) }
            if demand(i, bytes) { setFootprint(i, apps[i].footprint + bytes) }
        case .free(let i, let bytes):
            guard apps[i].state.runsCode else { return ignored(action, .runsNoCode(apps[i].state)) }
            setFootprint(i, apps[i].footprint - releasable(i, bytes))
        case .memoryWarning: sendMemoryWarnings(cause: .script)
        case .play(let i): play(i, action)
        case .stop(let i): stop(i, action)
        case .track(let i): track(i, action)
        case .untrack(let i): untrack(i, action)
        case .voipCall(let i, let length): voipCall(i, length, action)
        case .show(let i, let object): show(i, object, action)
        case .dismiss(let i, let object): dismiss(i, object, action)
        case .allocateProcess(let k, let bytes): allocate(process: k, bytes, action)
        case .freeProcess(let k, let bytes): free(process: k, bytes, action)
        case .freeze(let i): freeze(i, action)
        }
    }
}
