// TRUST_PROXY → Fastify's trustProxy. Addresses and `true` are handed over as they are.
// A hop count is turned into a function of our own: Fastify 5.12 deliberately treats a
// bare number as "trust nothing", because a count alone cannot tell a proxy from a client
// that connects directly. The function trusts exactly the N nearest hops, so the client
// is the Nth address from the right of X-Forwarded-For and X-Forwarded-Proto is taken
// from the nearest proxy. It is only safe when the instances are reachable solely through
// those N proxies (docs/operations.md); with addresses that condition is checked instead.
import type { TrustProxy } from '../config';

export type FastifyTrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

export function fastifyTrustProxy(tp: TrustProxy): FastifyTrustProxy {
  if (tp === false || tp === true) return tp;
  if ('hops' in tp) {
    const hops = tp.hops;
    return (_address, hop) => hop < hops;
  }
  return tp.addresses;
}
