// The record of something already done outside the database (a mail the SMTP server accepted,
// a webhook its receiver acknowledged) must survive a database blip: written again until it
// sticks, or the claim's lease runs out and another instance does it a second time.

/**
 * Runs `write` until it succeeds, every `everyMs`, for at most `withinMs`; then throws its last
 * error. Only for writes that may safely run twice (conditional updates of one row).
 */
export async function persist<T>(write: () => Promise<T>, withinMs: number, everyMs = 500): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (Date.now() + everyMs > until) throw err;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
