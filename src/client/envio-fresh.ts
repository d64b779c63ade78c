// A form page never keeps a used envio_id (docs/decisions/183). A page the back button
// brings back — restored whole from the back-forward cache, or loaded again from history
// with its fields filled in by the browser — may hold the key of a form already sent: it
// gets a fresh one, so what the customer sends next is a submission of its own. The server
// tells a repeat from a new submission by its content anyway (without this script too).
// The key has the server's format (shared/envio-id.ts).
import { newEnvioId } from './shared/envio-id';

function fromHistory(): boolean {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type === 'back_forward';
}

window.addEventListener('pageshow', (event) => {
  if (!event.persisted && !fromHistory()) return;
  for (const input of document.querySelectorAll<HTMLInputElement>('form input[name="envio_id"]'))
    input.value = newEnvioId();
});
