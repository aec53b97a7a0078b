/// How long iOS lets an app run in the background, per era (the `xnu` policy; `seed-2015` keeps
/// the reference text's 10 minutes in every era). Apple publishes none of these numbers: each is
/// what the system itself printed or what Apple's Developer Technical Support measured, cited
/// below and in the model choices.
public enum BackgroundTime {
    /// The `beginBackgroundTask(expirationHandler:)` limit of an iOS major version, counted from
    /// entering the background:
    ///
    /// - up to iOS 6, 600 s: SpringBoard's assertion names `permittedBackgroundDuration:
    ///   600.000000` (a console log of August 2013, joexi/BackgroundRunner#1);
    /// - iOS 7 to 12, 180 s: `permittedBackgroundDuration: 180.000000` in the crash reports of apps
    ///   killed for outliving it (voyage11/Location#7, January 2015; ProcedureKit/ProcedureKit#233,
    ///   March 2016); "since iOS 7 they have reduced this time to 180 seconds";
    /// - iOS 13 and later, 30 s: Apple DTS measured a task that "ran for 30 seconds" in the
    ///   background (developer forums, "BackgroundTaskWithExpirationHandler: thread too short?",
    ///   message 391799) and writes "on current systems you can expect about 30 seconds" with no
    ///   guarantee (forums thread 85066, "UIApplication Background Task Notes"); UIKit logs "was
    ///   created over 30 seconds ago. In applications running in the background, this creates a
    ///   risk of termination" (Countly/countly-sdk-ios#190, 2021; google/GoogleDataTransport#156,
    ///   2024; deltachat/deltachat-ios#1461: "the app is terminated by apple after 30 seconds").
    ///
    /// The 30 s is exact only to the evidence: no source gives a finer figure, the system may end a
    /// task sooner (the question of message 391799 reports about 15 s), and memprof takes 30 s to
    /// the microsecond.
    public static func taskLimitUs(iosMajor major: Int) -> Microseconds {
        switch major {
        case ...6: 10 * .minute
        case 7...12: 180 * .second
        default: 30 * .second
        }
    }

    /// The window of a `BGAppRefreshTask` (iOS 13 and later): 30 s. Apple's session introducing
    /// BGTaskScheduler (WWDC 2019 session 707, "Advances in App Background Execution") gives app
    /// refresh "30 seconds of runtime", as background fetch had; Apple's reference
    /// (developer.apple.com/documentation/backgroundtasks/bgapprefreshtask) calls it "a short
    /// task" with no figure. Past it the system calls the task's expiration handler: memprof ends
    /// the task there (`expiredEnded`) and does not kill the app.
    public static let refreshWindowUs: Microseconds = 30 * .second

    /// Whether BGTaskScheduler runs (app refresh and processing tasks, and background fetch as
    /// the system schedules it from iOS 13): the `xnu` policy on an iPhone or iPad whose iOS is
    /// 13 or later (a device that names no version runs the `xnu` preset's era, iOS 16). The
    /// framework is "iOS 13.0+" (developer.apple.com/documentation/backgroundtasks); `seed-2015`
    /// keeps the reference text's exact fetch intervals and has no such tasks.
    public static func schedulesTasks(on device: Device, policy: PolicySettings) -> Bool {
        policy.xnu != nil && device.platform == .ios && (device.osMajor ?? XNUSettings.kernelIOSMajor) >= 13
    }

    /// The limit on `device` under `xnu`: its iOS version's (a device that names none runs the
    /// `xnu` preset's era, iOS 16, ``XNUSettings/kernel``); nil on a Mac, which has no such limit.
    public static func taskLimitUs(on device: Device) -> Microseconds? {
        guard device.platform == .ios else { return nil }
        return taskLimitUs(iosMajor: device.osMajor ?? XNUSettings.kernelIOSMajor)
    }
}

extension PolicySettings {
    /// The `xnu` policy's numbers for `device`: its kernel era's (``XNUSettings/forDevice(_:)``)
    /// and its iOS version's background-task limit (``BackgroundTime``), unless
    /// `keepingTaskLimit` (a workload gave its own). Nothing changes for `seed-2015`.
    public mutating func adoptEra(of device: Device, keepingTaskLimit: Bool = false) {
        guard xnu != nil else { return }
        xnu = .forDevice(device)
        if !keepingTaskLimit, let limit = BackgroundTime.taskLimitUs(on: device) { backgroundTaskLimitUs = limit }
    }
}
