// Kiosk mode (reception tablet). Every answer is first kept in IndexedDB with its
// envio_id, then sent; the server stores one response per envio_id (docs/decisions/032),
// so a resend after a lost reply or a flaky network never doubles an answer. The page
// shows thanks for 5 s and a fresh form whether or not the network is up, and keeps a
// fresh CSRF token by asking /token.php in the background: it can stay open for days.
import { newEnvioId } from './shared/envio-id';

const DB_NAME = 'quiosque';
const STORE = 'respostas';
const THANKS_MS = 5000;
const TOKEN_EVERY_MS = 30 * 60 * 1000;
const RETRY_EVERY_MS = 15 * 1000;
/** a half-answered form left alone goes back to a fresh one */
const IDLE_RESET_MS = 2 * 60 * 1000;

interface Queued {
  envio_id: string;
  /** urlencoded body without the token (added at send time) */
  body: string;
  criado_em: number;
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'envio_id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function tx<T>(db: IDBDatabase, mode: IDBTransactionMode, run: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const req = run(t.objectStore(STORE));
    t.oncomplete = () => resolve(req.result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error);
  });
}

async function init(form: HTMLFormElement) {
  const db = await openDb();
  const tokenUrl = form.dataset.tokenUrl ?? '/NPS/nps_app_php/token.php';
  const tokenInput = form.querySelector<HTMLInputElement>('input[name="_token"]')!;
  const envioInput = form.querySelector<HTMLInputElement>('input[name="envio_id"]')!;
  const formArea = document.querySelector<HTMLElement>('[data-kiosk-form-area]')!;
  const thanks = document.querySelector<HTMLElement>('[data-kiosk-thanks]')!;
  const status = document.querySelector<HTMLElement>('[data-kiosk-status]')!;
  let token = tokenInput.value;
  let flushing = false;

  async function refreshToken(): Promise<boolean> {
    try {
      const res = await fetch(tokenUrl, {
        headers: { accept: 'application/json' },
        cache: 'no-store',
        credentials: 'same-origin',
      });
      if (!res.ok) return false;
      const json = (await res.json()) as { token?: string };
      if (!json.token) return false;
      token = json.token;
      tokenInput.value = token;
      return true;
    } catch {
      return false;
    }
  }

  async function showPending() {
    const n = await tx(db, 'readonly', (s) => s.count());
    status.textContent =
      n === 0
        ? ''
        : `${n} ${n === 1 ? 'avaliação guardada' : 'avaliações guardadas'} neste aparelho: ${
            n === 1 ? 'será enviada' : 'serão enviadas'
          } quando a internet voltar.`;
  }

  /** Sends every queued answer, oldest first; stops at the first network failure. */
  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      const all = (await tx(db, 'readonly', (s) => s.getAll())) as Queued[];
      all.sort((a, b) => a.criado_em - b.criado_em);
      for (const item of all) {
        let outcome = await send(item);
        if (outcome === 'token') outcome = (await refreshToken()) ? await send(item) : 'offline';
        if (outcome === 'offline' || outcome === 'token') break;
        // stored, a duplicate (already stored) or refused for good: it leaves the queue.
        await tx(db, 'readwrite', (s) => s.delete(item.envio_id));
      }
    } finally {
      flushing = false;
      await showPending();
    }
  }

  async function send(item: Queued): Promise<'done' | 'offline' | 'token'> {
    try {
      const body = new URLSearchParams(item.body);
      body.set('_token', token);
      const res = await fetch(form.action, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        credentials: 'same-origin',
      });
      if (res.ok) return 'done';
      if (res.status === 403) return 'token';
      if (res.status === 422) {
        // The survey changed since the page was loaded (a question removed): keeping it
        // would block the queue forever. Reported in the console for the staff.
        console.warn('avaliação recusada pelo servidor', await res.text());
        return 'done';
      }
      return 'offline'; // 429, 5xx: try again later
    } catch {
      return 'offline';
    }
  }

  let idleTimer: number | undefined;
  const resetForm = () => {
    form.reset();
    envioInput.value = newEnvioId();
    tokenInput.value = token;
  };
  const armIdle = () => {
    window.clearTimeout(idleTimer);
    idleTimer = window.setTimeout(resetForm, IDLE_RESET_MS);
  };
  form.addEventListener('input', armIdle);
  form.addEventListener('change', armIdle);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    window.clearTimeout(idleTimer);
    const data = new URLSearchParams();
    new FormData(form).forEach((v, k) => {
      if (typeof v === 'string' && k !== '_token') data.append(k, v);
    });
    const item: Queued = { envio_id: envioInput.value || newEnvioId(), body: data.toString(), criado_em: Date.now() };
    await tx(db, 'readwrite', (s) => s.put(item));
    formArea.hidden = true;
    thanks.hidden = false;
    void flush();
    window.setTimeout(() => {
      resetForm();
      thanks.hidden = true;
      formArea.hidden = false;
      window.scrollTo(0, 0);
    }, THANKS_MS);
  });

  window.addEventListener('online', () => void flush());
  window.setInterval(() => void flush(), RETRY_EVERY_MS);
  window.setInterval(() => void refreshToken(), TOKEN_EVERY_MS);
  document.documentElement.dataset.kioskReady = '1';
  void flush();
}

const form = document.querySelector<HTMLFormElement>('form[data-kiosk]');
if (form && 'indexedDB' in window) void init(form);
