extension BuiltinWorkloads {
    /// Observers (spec §7): a block observer that leaks three times in Mail, a well-behaved one,
    /// and a selector observer in Messages that outlives its sheet and crashes the app.
    static let observerLeaks = """
    memprof: 1
    name: observer-leaks
    seed: 3
    duration: 1h
    device: iphone-6-plus
    policy: seed-2015
    apps:
      mail:
        name: Mail
        launch: {footprint: 45MB, time: 1.2s}
        onBackground: {release: 20MB}
        objects:
          InboxController:
            size: 3MB
            observes: [UIApplicationDidEnterBackgroundNotification]
            style: block
            unregisters: false
          MessageViewer:
            size: 2MB
            observes: [UIApplicationWillResignActiveNotification, UIApplicationDidBecomeActiveNotification]
            style: selector
            unregisters: true
      messages:
        name: Messages
        launch: {footprint: 30MB, time: 800ms}
        onBackground: {release: 10MB}
        objects:
          ComposeSheet:
            size: 4MB
            observes: [UIApplicationDidEnterBackgroundNotification]
            style: selector
            unregisters: false
      safari:
        name: Safari
        launch: {footprint: 150MB, time: 1.5s}
        onBackground: {release: 60MB}
    script:
      - {at: 0s, open: mail}
      - {at: 1m, show: mail, object: InboxController}
      - {at: 3m, dismiss: mail, object: InboxController}
      - {at: 4m, show: mail, object: InboxController}
      - {at: 6m, dismiss: mail, object: InboxController}
      - {at: 7m, show: mail, object: MessageViewer}
      - {at: 8m, dismiss: mail, object: MessageViewer}
      - {at: 9m, show: mail, object: InboxController}
      - {at: 11m, dismiss: mail, object: InboxController}
      - {at: 12m, open: messages}
      - {at: 13m, show: messages, object: ComposeSheet}
      - {at: 14m, dismiss: messages, object: ComposeSheet}
      - {at: 15m, interrupt: notificationCenter, length: 10s}
      - {at: 20m, open: safari}
      - {at: 25m, open: mail}
      - {at: 30m, home: true}
      - {at: 40m, open: messages}
      - {at: 50m, open: safari}
    """

    /// Platform macos (spec §3): a working day on a MacBook Pro that goes past RAM and swaps,
    /// with iOS-only declarations and actions recorded as not applicable, and a leaking window.
    static let macWorkday = """
    memprof: 1
    name: mac-workday
    seed: 5
    duration: 8h
    device: macbook-pro-2015
    apps:
      mail:
        name: Mail
        launch: {footprint: 300MB, time: 2s}
        resumeTime: 100ms
        modes: [fetch, remote-notification]
        fetch: {interval: 15m, time: 4s}
        push: {time: 1s}
        backgroundTask: {time: 1m}
        objects:
          MessageWindow:
            size: 40MB
            observes: [NSApplicationDidBecomeActiveNotification]
            style: block
            unregisters: false
      slack:
        name: Slack
        launch: {footprint: 800MB, time: 3s}
        growth: 2MB/min
        maxFootprint: 1.2GB
      xcode:
        name: Xcode
        launch: {footprint: 2.5GB, time: 8s}
        resumeTime: 300ms
        growth: 20MB/min
        maxFootprint: 4GB
      safari:
        name: Safari
        launch: {footprint: 1.2GB, time: 2s}
        growth: 10MB/min
        maxFootprint: 2.5GB
      photos:
        name: Photos
        launch: {footprint: 1.5GB, time: 4s}
    script:
      - {at: 0s, open: mail}
      - {at: 5m, open: slack}
      - {at: 10m, open: xcode}
      - {at: 1h, open: safari}
      - {at: 1h30m, open: xcode}
      - {at: 2h30m, open: slack}
      - {at: 2h40m, push: mail}
      - {at: 3h, open: photos}
      - {at: 3h30m, open: xcode}
      - {at: 4h, quit: photos}
      - {at: 4h30m, open: safari}
      - {at: 5h, open: xcode}
      - {at: 6h, interrupt: call, length: 5m}
      - {at: 6h30m, open: mail}
      - {at: 6h31m, show: mail, object: MessageWindow}
      - {at: 6h35m, dismiss: mail, object: MessageWindow}
      - {at: 6h40m, show: mail, object: MessageWindow}
      - {at: 6h45m, dismiss: mail, object: MessageWindow}
      - {at: 7h, open: xcode}
      - {at: 7h30m, open: mail}
      - {at: 7h45m, quit: slack}
    """
}
