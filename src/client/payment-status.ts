// The enrolment's payment page learns the payment arrived without a reload: it asks
// /matricula/:codigo/situacao.json every few seconds (our database only, never the
// provider) and reloads itself once the status is no longer the one it was drawn with.
// Without this script a reload shows the same thing.
const EVERY_MS = 4_000;
const GIVE_UP_MS = 30 * 60_000;

function watch(box: HTMLElement) {
  const url = box.dataset.paymentStatus;
  const drawn = box.dataset.status;
  if (!url || !drawn) return;
  const started = Date.now();
  const line = document.createElement('p');
  line.className = 'hint';
  line.setAttribute('role', 'status');
  line.setAttribute('aria-live', 'polite');
  line.textContent = 'Esperando a confirmação do pagamento… esta página se atualiza sozinha.';
  box.append(line);
  const ask = async () => {
    if (Date.now() - started > GIVE_UP_MS) {
      line.textContent = 'Já pagou? Recarregue a página para ver a situação.';
      return;
    }
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
      if (res.ok) {
        const answer = (await res.json()) as { chave?: string };
        if (answer.chave && answer.chave !== drawn) {
          line.textContent = 'Pagamento confirmado. Atualizando…';
          window.location.reload();
          return;
        }
      }
    } catch {
      // Offline for a moment: the next round asks again.
    }
    setTimeout(ask, EVERY_MS);
  };
  setTimeout(ask, EVERY_MS);
}

document.querySelectorAll<HTMLElement>('[data-payment-status]').forEach(watch);
export {};
