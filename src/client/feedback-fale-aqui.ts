// "Fale aqui" form enhancements: the unit picker fills the unit name, a live character
// counter, and previews of at most 2 photos. The form works without this script.
const MAX_FILES = 2;
const MAX_BYTES = 20 * 1024 * 1024;
const TYPES = ['image/jpeg', 'image/png', 'image/webp'];

function init(form: HTMLFormElement) {
  const select = form.querySelector<HTMLSelectElement>('select[name="unidade_id"]');
  const unitName = form.querySelector<HTMLInputElement>('input[name="unidade"]');
  if (select && unitName) {
    select.addEventListener('change', () => {
      const option = select.selectedOptions[0];
      const name = option?.dataset.nome;
      if (name) unitName.value = name;
    });
  }

  const textarea = form.querySelector<HTMLTextAreaElement>('textarea[name="mensagem"]');
  const counter = form.querySelector<HTMLElement>('[data-counter]');
  if (textarea && counter) {
    const max = textarea.maxLength > 0 ? textarea.maxLength : 3000;
    const update = () => {
      counter.textContent = `${textarea.value.length}/${max}`;
    };
    counter.hidden = false;
    update();
    textarea.addEventListener('input', update);
  }

  const input = form.querySelector<HTMLInputElement>('input[type="file"]');
  const previews = form.querySelector<HTMLElement>('[data-previews]');
  const fileError = form.querySelector<HTMLElement>('[data-files-error]');
  if (!input || !previews || !fileError) return;
  const showError = (message: string) => {
    fileError.textContent = message;
    fileError.hidden = message === '';
  };
  input.addEventListener('change', () => {
    previews.replaceChildren();
    showError('');
    const files = Array.from(input.files ?? []);
    if (files.length > MAX_FILES) {
      input.value = '';
      showError(`Escolha no máximo ${MAX_FILES} fotos.`);
      return;
    }
    const tooBig = files.find((f) => f.size > MAX_BYTES);
    if (tooBig) {
      input.value = '';
      showError(`A foto ${tooBig.name} tem mais de 20 MB. Escolha uma foto menor.`);
      return;
    }
    const wrong = files.find((f) => !TYPES.includes(f.type));
    if (wrong) {
      input.value = '';
      showError(`${wrong.name} não é uma foto JPEG, PNG ou WebP.`);
      return;
    }
    files.forEach((file, i) => {
      // data: URLs, because the Content-Security-Policy allows images from 'self' and data: only.
      const reader = new FileReader();
      reader.addEventListener('load', () => {
        const figure = document.createElement('figure');
        const img = document.createElement('img');
        img.src = String(reader.result);
        img.alt = `Prévia da foto ${i + 1}`;
        const caption = document.createElement('figcaption');
        caption.textContent = file.name;
        figure.append(img, caption);
        previews.append(figure);
      });
      reader.readAsDataURL(file);
    });
  });
}

document.querySelectorAll<HTMLFormElement>('form[data-fale-aqui]').forEach(init);
