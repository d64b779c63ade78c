// One HTTP attempt at a receiver: POST with the Standard Webhooks headers, through node:http(s)
// with our own lookup (only checked addresses are connected to), no redirect followed (a
// 3xx is a failure), the whole answer within the time limit, at most 1 KB of it kept.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AddressRefusedError, bareHost, guardedLookup, isPrivateAddress } from './ssrf';

export const RESPONSE_KEEP_BYTES = 1024;

export interface SendResult {
  /** ok | http | redirecionamento | tempo_esgotado | conexao | endereco_recusado */
  resultado: string;
  codigo: number | null;
  duracaoMs: number;
  resposta: string | null;
  erro: string | null;
}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean; userAgent?: string },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { resultado: 'conexao', codigo: null, duracaoMs: 0, resposta: null, erro: 'URL inválida' };
  }
  // An address written in the URL is connected to without a lookup: checked here.
  const literal = bareHost(target.hostname);
  if (isIP(literal) && !options.allowPrivate && isPrivateAddress(literal))
    return {
      resultado: 'endereco_recusado',
      codigo: null,
      duracaoMs: 0,
      resposta: null,
      erro: `${literal} é um endereço interno`,
    };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'duracaoMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, duracaoMs: elapsed() });
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': options.userAgent ?? 'gym-chain-webhooks/1',
        },
        lookup: guardedLookup(options.allowPrivate) as never,
        // A fresh connection per attempt: a kept-alive socket would skip the address check.
        agent: false,
      },
      (res) => {
        const code = res.statusCode ?? 0;
        const kept: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_KEEP_BYTES) kept.push(chunk.subarray(0, RESPONSE_KEEP_BYTES - size));
          size += chunk.length;
          // The rest is not read: a receiver cannot make us download a large body.
          if (size >= RESPONSE_KEEP_BYTES) res.destroy();
        });
        const done = () => {
          const text = Buffer.concat(kept).toString('utf8');
          const resposta = text.length ? text : null;
          if (code >= 200 && code < 300) finish({ resultado: 'ok', codigo: code, resposta, erro: null });
          else if (code >= 300 && code < 400)
            finish({
              resultado: 'redirecionamento',
              codigo: code,
              resposta,
              erro: `redirecionamento não seguido (${res.headers.location ?? 'sem Location'})`.slice(0, 500),
            });
          else finish({ resultado: 'http', codigo: code, resposta, erro: `HTTP ${code}` });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({
        resultado: 'tempo_esgotado',
        codigo: null,
        resposta: null,
        erro: `sem resposta completa em ${options.timeoutMs} ms`,
      });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof AddressRefusedError)
        finish({ resultado: 'endereco_recusado', codigo: null, resposta: null, erro: err.message });
      else
        finish({
          resultado: 'conexao',
          codigo: null,
          resposta: null,
          erro: [err.code, err.message].filter(Boolean).join(' ').slice(0, 500),
        });
    });
    req.end(body);
  });
}
