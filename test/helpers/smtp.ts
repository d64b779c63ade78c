// A real SMTP server for tests (smtp-server), on 127.0.0.1 with a free port. It keeps
// every accepted message; it can require AUTH, reject transactions ("down" with a 421)
// or stop listening altogether and come back on the same port.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  /** decoded Subject header (RFC 2047 words decoded) */
  subject: string;
  headers: Record<string, string>;
}

export interface TestSmtp {
  port: number;
  messages: CapturedMail[];
  /** SMTP connections accepted so far */
  readonly connections: number;
  /** smtp env for createTestApp */
  env: Record<string, string>;
  /**
   * While on, a message is kept (in `messages`) but its final "250" is held back, as if
   * the server were slow: the sender is left waiting mid-delivery. release() answers them.
   */
  setHolding(on: boolean): void;
  /** messages whose answer is being held */
  readonly holding: number;
  release(): void;
  /** answer 421 to every MAIL FROM while true */
  setRejecting(on: boolean): void;
  /** close the listening socket (connections are refused) */
  stopListening(): Promise<void>;
  /** listen again on the same port */
  resume(): Promise<void>;
  close(): Promise<void>;
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_m, _charset, enc: string, text: string) => {
    if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    const bytes = text
      .replace(/_/g, ' ')
      .replace(/=([0-9A-Fa-f]{2})/g, (_x, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  });
}

function parseHeaders(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of unfolded.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  return headers;
}

export async function startSmtp(options: { user?: string; pass?: string } = {}): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  let rejecting = false;
  let connections = 0;
  let hold = false;
  const held: (() => void)[] = [];
  const needsAuth = Boolean(options.user);

  const makeServer = () =>
    new SMTPServer({
      secure: false,
      disabledCommands: needsAuth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !needsAuth,
      allowInsecureAuth: true,
      logger: false,
      banner: 'Servidor de teste',
      onConnect(_session, cb) {
        connections++;
        cb();
      },
      onAuth(auth, _session, cb) {
        if (auth.username === options.user && auth.password === options.pass) return cb(null, { user: auth.username });
        return cb(Object.assign(new Error('Credenciais inválidas'), { responseCode: 535 }));
      },
      onMailFrom(_address, _session, cb) {
        if (rejecting)
          return cb(Object.assign(new Error('Serviço temporariamente indisponível'), { responseCode: 421 }));
        cb();
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const headers = parseHeaders(raw);
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: headers.subject ?? '',
            headers,
          });
          if (hold) held.push(() => cb());
          else cb();
        });
      },
    });

  let server = makeServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  let listening = true;

  const stop = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
    });

  return {
    port,
    messages,
    get connections() {
      return connections;
    },
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_SECURE: 'none',
      ...(options.user ? { SMTP_USER: options.user, SMTP_PASS: options.pass ?? '' } : {}),
    },
    setHolding(on) {
      hold = on;
    },
    get holding() {
      return held.length;
    },
    release() {
      for (const answer of held.splice(0)) answer();
    },
    setRejecting(on) {
      rejecting = on;
    },
    stopListening: stop,
    async resume() {
      if (listening) return;
      server = makeServer();
      await listen(port);
      listening = true;
    },
    close: stop,
  };
}
