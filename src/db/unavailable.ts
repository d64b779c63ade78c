// Which errors mean "the database is unreachable right now" (a restart, a dropped
// connection, a timeout) as opposed to a bug or bad data. Those answer 503, never 500.

// SQLSTATE classes/codes: 08 connection exception, 57P01-57P03 shutdown / cannot connect
// now, 57014 statement timeout or cancel, 53300 too many connections.
const PG_CODES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '40001', '40P01']);
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Query read timeout',
  'connection timeout',
  'Cannot use a pool after calling end',
];

export function isDbUnavailableError(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code.startsWith('08') && code.length === 5) return true;
    if (PG_CODES.has(code) || NODE_CODES.has(code)) return true;
    // SQLite: another process held the write lock past busy_timeout.
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (MESSAGES.some((m) => message.includes(m))) return true;
    if (err instanceof AggregateError && err.errors.some(isDbUnavailableError)) return true;
  }
  return false;
}
