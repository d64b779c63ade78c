// Memory goes back after a burst (src/lib/idle-memory.ts, docs/decisions/175): a real
// process with and without --expose-gc, a real burst, V8's own heap figures.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const child = async (flags: string[]) => {
  const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', 'test/helpers/idle-memory-child.ts'], {
    timeout: 20_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as {
    started: boolean;
    quietFrom?: number;
    events?: { at: number; heapBeforeBytes: number; heapAfterBytes: number; ms: number }[];
  };
};

it('releases the heap a burst left behind once the process is quiet, never during the burst', async () => {
  const out = await child(['--expose-gc', '--max-semi-space-size=1']);
  expect(out.started).toBe(true);
  expect(out.events).toHaveLength(1);
  const [release] = out.events!;
  expect(release!.at).toBeGreaterThanOrEqual(out.quietFrom!);
  // what the burst promoted is given back
  expect(release!.heapBeforeBytes - release!.heapAfterBytes).toBeGreaterThan(8 * 1024 * 1024);
});

it('does nothing (and says so to its caller) without --expose-gc', async () => {
  expect((await child([])).started).toBe(false);
});
