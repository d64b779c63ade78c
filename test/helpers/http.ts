import type { App } from '../../src/app';

/** Cookies from a response's set-cookie headers, as a Cookie header value. */
export function cookiesFrom(res: { headers: Record<string, unknown> }, previous = ''): string {
  const jar = new Map<string, string>();
  for (const part of previous
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const i = part.indexOf('=');
    jar.set(part.slice(0, i), part.slice(i + 1));
  }
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  for (const c of list) {
    const [pair] = String(c).split(';');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i);
    const value = pair!.slice(i + 1);
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(String(c))) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** Opens a form page and returns the CSRF token in it (field `name`) and the cookies. */
export async function fetchForm(app: App, url: string, field = 'csrf_token', cookie = '') {
  const res = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const match =
    new RegExp(`name="${field.replace(/[[\]]/g, '\\$&')}"[^>]*value="([^"]+)"`).exec(res.body) ??
    new RegExp(`value="([^"]+)"[^>]*name="${field}"`).exec(res.body);
  if (!match) throw new Error(`no ${field} in ${url} (status ${res.statusCode})`);
  return { token: match[1]!, cookie: cookiesFrom(res, cookie), res };
}

/** application/x-www-form-urlencoded body from pairs (repeated keys allowed). */
export function form(fields: Record<string, string | number | undefined> | [string, string][]): string {
  const params = new URLSearchParams();
  const entries = Array.isArray(fields) ? fields : Object.entries(fields);
  for (const [k, v] of entries) if (v !== undefined) params.append(k, String(v));
  return params.toString();
}
