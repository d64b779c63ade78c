// Request ids: cheap and unique enough to find one request in the logs of many instances.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a proxy's or load balancer's id may look like to be reused (no spaces, no control characters). */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * An id per request: the incoming `X-Request-Id` when it is well-formed (a proxy's id ties
 * its log to ours), otherwise a per-process random prefix plus a counter, e.g. `k3f9q2-1a`.
 * A UUID per request cost a CSPRNG call and 36 bytes for nothing more.
 */
export function createRequestIdGenerator(prefix = randomBytes(4).readUInt32BE(0).toString(36)) {
  let counter = 0;
  return (req: IncomingMessage): string => {
    const incoming = req.headers['x-request-id'];
    if (typeof incoming === 'string' && WELL_FORMED.test(incoming)) return incoming;
    counter = counter >= Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
    return `${prefix}-${counter.toString(36)}`;
  };
}
