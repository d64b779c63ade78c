// "Copiar código Pix" on the enrolment's payment page: a button under the copia-e-cola that
// puts the code on the clipboard, and says so. Without this script the page works the same:
// the code is in a read-only text box the customer selects and copies by hand.
const COPIED = 'Código copiado. Cole no app do seu banco, em Pix › Pix copia e cola.';
const NOT_COPIED = 'Não foi possível copiar. O código está selecionado: copie pelo menu do seu celular.';

async function copy(code: HTMLTextAreaElement): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(code.value);
    return true;
  } catch {
    // Older browsers, or a page not served over https: the selection and the old copy command.
    code.focus();
    code.setSelectionRange(0, code.value.length);
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

function init(code: HTMLTextAreaElement) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'pix-copy';
  button.textContent = 'Copiar código Pix';
  const status = document.createElement('p');
  status.className = 'pix-copy-status';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  button.addEventListener('click', async () => {
    status.textContent = '';
    status.textContent = (await copy(code)) ? COPIED : NOT_COPIED;
  });
  code.after(button, status);
}

document.querySelectorAll<HTMLTextAreaElement>('textarea[data-pix-code]').forEach(init);
export {};
