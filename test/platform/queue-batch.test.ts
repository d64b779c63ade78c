// The batch loop every outbox worker shares: an error out of one attempt ends the batch, the
// rows not attempted yet are handed back at once, and no row still being attempted is.
import { describe, expect, it } from 'vitest';
import { attemptClaimed, type ClaimedBatch } from '../../src/platform/queue/batch';

function batchOf(concurrency: number, released: number[][]): ClaimedBatch<number> {
  return {
    leaseMs: 60_000,
    concurrency,
    renew: async () => {},
    release: async (ids) => {
      released.push([...ids].sort((a, b) => a - b));
    },
    renewalFailure: 'renewal failed',
  };
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('attemptClaimed', () => {
  it('attempts every row and releases none when all go well', async () => {
    const released: number[][] = [];
    const done: number[] = [];
    await attemptClaimed(rows(5), batchOf(2, released), async (r) => {
      done.push(r.id);
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(released).toEqual([]);
  });

  it('after an error, waits for the attempts in flight, releases only the untried rows and throws', async () => {
    const released: number[][] = [];
    const finished: number[] = [];
    const run = attemptClaimed(rows(6), batchOf(2, released), async (r) => {
      if (r.id === 1) throw new Error('database gone');
      await sleep(30);
      // Row 2 was in flight when row 1 failed: it finishes before anything is handed back.
      expect(released).toEqual([]);
      finished.push(r.id);
    });
    await expect(run).rejects.toThrow('database gone');
    expect(finished).toEqual([2]);
    expect(released).toEqual([[3, 4, 5, 6]]);
  });

  it('an error is not hidden by a release that fails too', async () => {
    const batch = batchOf(1, []);
    batch.release = async () => {
      throw new Error('release failed');
    };
    const run = attemptClaimed(rows(3), batch, async () => {
      throw new Error('attempt failed');
    });
    await expect(run).rejects.toThrow('attempt failed');
  });
});
