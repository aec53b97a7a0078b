/// Built-in workloads of today's devices.
extension BuiltinWorkloads {
    /// A day on an iPhone 15 with iOS 18 under `xnu`: messaging, maps with music on the commute, a
    /// browser, a social feed, the camera and photos at lunch, a call, a large game in the
    /// evening. The device is the `iphone-15` preset (6 GB; its limit derived from the iPhone 13
    /// Pro's published measurement) on iOS 18.5 (22F76), the build of a published iPhone 14
    /// JetsamEvent report (Tests/MemprofFieldTests/Fixtures/ios18-iphone14-excerpt.ips). The apps'
    /// footprints are illustrative, chosen for a 6 GB phone (a game near two gigabytes, a browser
    /// growing past one), not measured; the widget extensions of that report are 3–4 MB each, far
    /// below any of them.
    static let phoneDay2026 = """
    memprof: 1
    name: phone-day-2026
    seed: 26
    duration: 16h
    device: {preset: iphone-15, osVersion: "iOS 18.5 (22F76)"}
    policy: xnu
    apps:
      messages:
        name: Messages
        launch: {footprint: 110MB, time: 600ms}
        resumeTime: 120ms
        growth: 2MB/min
        maxFootprint: 220MB
        onBackground: {release: 40MB, time: 100ms}
        onMemoryWarning: {release: 30MB}
        modes: [remote-notification]
        push: {time: 1s, allocates: 4MB}
      mail:
        name: Mail
        launch: {footprint: 140MB, time: 900ms}
        resumeTime: 150ms
        growth: 2MB/min
        maxFootprint: 260MB
        onBackground: {release: 50MB, time: 150ms}
        onMemoryWarning: {release: 30MB}
        modes: [fetch, remote-notification]
        fetch: {interval: 30m, time: 5s, allocates: 12MB}
        push: {time: 2s, allocates: 4MB}
        backgroundTask: {time: 2m, endsOnExpiration: true, allocates: 30MB}
      maps:
        name: Maps
        launch: {footprint: 380MB, time: 1.8s}
        resumeTime: 300ms
        growth: 6MB/min
        maxFootprint: 650MB
        onBackground: {release: 120MB, time: 300ms}
        onMemoryWarning: {release: 80MB}
        modes: [location]
      music:
        name: Music
        launch: {footprint: 160MB, time: 900ms}
        onBackground: {release: 60MB}
        modes: [audio]
      safari:
        name: Safari
        launch: {footprint: 420MB, time: 1.2s}
        resumeTime: 250ms
        growth: 10MB/min
        maxFootprint: 1100MB
        onBackground: {release: 200MB, time: 200ms}
        onMemoryWarning: {release: 150MB}
      social:
        name: Social Feed
        launch: {footprint: 450MB, time: 2s}
        resumeTime: 350ms
        growth: 8MB/min
        maxFootprint: 800MB
        onBackground: {release: 150MB, time: 300ms}
        onMemoryWarning: {release: 100MB}
        modes: [fetch, remote-notification]
        fetch: {interval: 1h, time: 8s, allocates: 40MB}
        push: {time: 3s, allocates: 10MB}
      camera:
        name: Camera
        launch: {footprint: 350MB, time: 800ms}
        resumeTime: 200ms
        onBackground: {release: 200MB, time: 200ms}
      photos:
        name: Photos
        launch: {footprint: 300MB, time: 1s}
        growth: 12MB/min
        maxFootprint: 700MB
        onBackground: {release: 150MB, time: 300ms}
        onMemoryWarning: {release: 100MB}
        backgroundTask: {time: 3m, endsOnExpiration: true, allocates: 120MB}
      game:
        name: Open World Game
        launch: {footprint: 1800MB, time: 8s}
        resumeTime: 1.5s
        growth: 20MB/min
        maxFootprint: 2600MB
        onBackground: {release: 200MB, time: 1.5s}
        onMemoryWarning: {release: 100MB}
      notes:
        name: Notes
        launch: {footprint: 45MB, time: 500ms}
        onBackground: {release: 15MB}
    script:
      - {at: 0s, open: messages}
      - {at: 5m, open: mail}
      - {at: 20m, open: music}
      - {at: 20m5s, play: music}
      - {at: 21m, open: maps}
      - {at: 21m10s, track: maps}
      - {at: 55m, untrack: maps}
      - {at: 56m, open: safari}
      - {at: 1h30m, open: social}
      - {at: 2h, stop: music}
      - {at: 2h, home: true}
      - {at: 3h, push: messages}
      - {at: 3h1m, open: messages}
      - {at: 4h, open: camera}
      - {at: 4h10m, open: photos}
      - {at: 4h20m, open: social}
      - {at: 4h40m, home: true}
      - {at: 5h, interrupt: call, answer: true, length: 12m}
      - {at: 6h, open: safari}
      - {at: 6h20m, allocate: safari, size: 300MB}
      - {at: 6h30m, free: safari, size: 200MB}
      - {at: 8h, push: mail}
      - {at: 8h30m, open: notes}
      - {at: 9h, open: music}
      - {at: 9h, play: music}
      - {at: 9h1m, open: maps}
      - {at: 9h1m10s, track: maps}
      - {at: 9h40m, untrack: maps}
      - {at: 10h, open: game}
      - {at: 10h30m, allocate: game, size: 300MB}
      - {at: 10h50m, interrupt: call, answer: false, length: 30s}
      - {at: 11h, open: messages}
      - {at: 11h5m, open: game}
      - {at: 11h40m, free: game, size: 200MB}
      - {at: 12h, stop: music}
      - {at: 12h, open: camera}
      - {at: 12h5m, open: photos}
      - {at: 12h30m, open: safari}
      - {at: 13h, open: social}
      - {at: 14h, home: true}
    generate:
      switchEvery: 8m
      weights: {messages: 5, social: 4, safari: 3, mail: 3, photos: 1, notes: 1, maps: 1, game: 1}
      homeEvery: 40m
    """
}
