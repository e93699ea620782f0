"""The flags every test browser is launched with."""

from __future__ import annotations

# Chromium keeps only the last --disable-features flag, so ours repeats the list Playwright passes
# (tests/test_chromium_flags.py checks it against a real launch) and adds RenderDocument: without a
# new frame host per cross-document navigation, a navigation costs Chromium about a sixth less CPU
# (30 navigations between site pages, eight launches each, alternating: median 172 against 213 ms),
# and the browser tests navigate hundreds of times. Pages render and behave the same.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join((*PLAYWRIGHT_DISABLED_FEATURES, "RenderDocument")),
]
