// Long reads are cut into batches; on SQLite each batch is a synchronous call, so between
// batches the event loop must get a turn (a macrotask, not a microtask) for waiting requests.
import { setImmediate as nextTurn } from 'node:timers/promises';

export function yieldToEventLoop(): Promise<void> {
  return nextTurn().then(() => undefined);
}
