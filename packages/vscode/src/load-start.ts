// Imported first by extension.ts, so it runs before the rest of the bundle (vscode-languageclient) loads:
// when the extension host began loading the extension, for the start-up timeline.
export const loadStartedAt = performance.timeOrigin + performance.now();
