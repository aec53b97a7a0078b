/// Audio and location (spec §2.2): an app that plays or tracks keeps running in the background.
///
/// Triggers: `play`, `stop`, `track`, `untrack`; another app starting to play.
extension Simulator {
    mutating func play(_ i: Int, _ action: ScriptAction) {
        guard apps[i].state.runsCode else { return ignored(action, .runsNoCode(apps[i].state)) }
        guard !apps[i].playing else { return ignored(action, .alreadyPlaying) }
        for j in apps.indices where j != i && apps[j].playing {
            apps[j].playing = false
            recordEnd(.audio, j, .interrupted(by: apps[i].spec.id))
            suspendIfIdle(j, after: .activityEnded(.audio, .interrupted(by: apps[i].spec.id)))
        }
        apps[i].playing = true
        recordStart(.audio, i)
    }

    mutating func stop(_ i: Int, _ action: ScriptAction) {
        guard apps[i].playing else { return ignored(action, .notPlaying) }
        apps[i].playing = false
        recordEnd(.audio, i, .completed)
        suspendIfIdle(i, after: .activityEnded(.audio, .completed))
    }

    mutating func track(_ i: Int, _ action: ScriptAction) {
        guard apps[i].state.runsCode else { return ignored(action, .runsNoCode(apps[i].state)) }
        guard !apps[i].tracking else { return ignored(action, .alreadyTracking) }
        apps[i].tracking = true
        recordStart(.location, i)
    }

    mutating func untrack(_ i: Int, _ action: ScriptAction) {
        guard apps[i].tracking else { return ignored(action, .notTracking) }
        apps[i].tracking = false
        recordEnd(.location, i, .completed)
        suspendIfIdle(i, after: .activityEnded(.location, .completed))
    }
}
