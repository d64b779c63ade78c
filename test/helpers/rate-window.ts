// The app's rate limits count in fixed windows (platform/ratelimit: the count of a key starts
// again at each multiple of the window). A test that sends N requests and expects the N+1th
// to be refused must not straddle a window's end, or the count restarts halfway (seen once
// in CI: the 31st booking POST answered 422 instead of 429).

/** Waits, when less than `neededMs` is left of the current `windowMs` window, for the next one to start. */
export async function awayFromWindowEnd(windowMs: number, neededMs = 10_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
