// A webhook receiver on 127.0.0.1 for tests: keeps every request (headers, body), answers as
// the test says (status, body, delay, redirect, or no answer), and counts one acknowledgement
// per webhook-id only when a 2xx answer was actually written to a live connection.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  id: string;
  timestamp: string;
  signature: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** close the connection without answering */
  drop?: boolean;
}

export interface TestReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** webhook-id → number of 2xx answers delivered */
  acks: Map<string, number>;
  answer: (req: ReceivedRequest, nth: number) => Answer;
  /** stops accepting connections (the receiver is "down"); resume() listens again on the same port */
  down(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: TestReceiver['answer'] = () => ({ status: 200 })): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: '',
    port: 0,
    requests: [],
    acks: new Map(),
    answer,
    down: async () => {},
    resume: async () => {},
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = {
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      receiver.requests.push(r);
      const nth = receiver.requests.filter((x) => x.id === r.id).length;
      const a = receiver.answer(r, nth);
      const reply = () => {
        if (a.drop) return res.socket?.destroy();
        if (res.socket?.destroyed) return; // the sender went away (killed, timed out)
        const status = a.status ?? 200;
        res.writeHead(status, { 'content-type': 'text/plain', ...a.headers });
        res.end(a.body ?? 'ok', () => {
          if (status >= 200 && status < 300) receiver.acks.set(r.id, (receiver.acks.get(r.id) ?? 0) + 1);
        });
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/gancho`;
  receiver.down = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  receiver.resume = () => new Promise<void>((resolve) => server.listen(receiver.port, '127.0.0.1', resolve));
  receiver.close = async () => {
    if (server.listening) await receiver.down();
  };
  return receiver;
}
