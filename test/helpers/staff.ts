// Staff fixtures: accounts created through the real service, login through the real form.
import { randomBytes } from 'node:crypto';
import type { App } from '../../src/app';
import type { Db } from '../../src/db/index';
import { accountsService } from '../../src/features/identity/services';
import { cookiesFrom, fetchForm, form } from './http';

export const LOGIN_URL = '/pages/Franquia/admin.php';

export interface StaffFixture {
  id: number;
  email: string;
  password: string;
}

// Real scrypt with a lower cost than production (N=2^14): test suites create many
// accounts; verification reads the cost from the stored hash, so login is unchanged.
const TEST_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };

export async function createStaffUser(
  db: Db,
  options: {
    email?: string;
    password?: string;
    nome?: string;
    papel?: 'admin' | 'gerente';
    unidadeIds?: number[];
  } = {},
): Promise<StaffFixture> {
  const email = options.email ?? `equipe-${randomBytes(4).toString('hex')}@example.com`;
  const password = options.password ?? 'senha-de-teste-123';
  const id = await accountsService(db, { scrypt: TEST_SCRYPT }).createFromCli({
    email,
    password,
    nome: options.nome ?? 'Pessoa da Equipe',
    papel: options.papel ?? 'admin',
    unidadeIds: options.unidadeIds,
  });
  return { id, email: email.toLowerCase(), password };
}

/**
 * Logs in through the login form (GET for the CSRF token, POST the credentials) and
 * returns the Cookie header (session + CSRF cookies) for further requests.
 */
export async function loginAs(
  app: App,
  email: string,
  password: string,
  options: { remoteAddress?: string } = {},
): Promise<string> {
  const page = await fetchForm(app, LOGIN_URL);
  const res = await app.inject({
    method: 'POST',
    url: LOGIN_URL,
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    payload: form({ csrf_token: page.token, acao: 'entrar', email, senha: password }),
  });
  if (res.statusCode !== 303) throw new Error(`login failed for ${email}: ${res.statusCode}`);
  return cookiesFrom(res, page.cookie);
}

/** A CSRF token valid for the given cookies (read from any staff page's logout form). */
export async function staffToken(app: App, cookie: string, url = LOGIN_URL): Promise<string> {
  const page = await fetchForm(app, url, 'csrf_token', cookie);
  return page.token;
}
