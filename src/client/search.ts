// Search as you type on the home page (progressive enhancement: without this script the
// form is a plain GET to "/" rendered by the server). ARIA 1.2 combobox + listbox:
// arrows move, Enter opens, Escape closes; a polite live region announces the count.

interface Item {
  tipo: 'plano' | 'unidade';
  id: number;
  nome: string;
  cidade?: string;
}

const DEBOUNCE_MS = 200;

function hrefFor(item: Item): string {
  // decision 012: a plan opens the home search for it, which lists the units offering it
  return item.tipo === 'unidade' ? `/Detalhes.php?id=${item.id}` : `/?q=${encodeURIComponent(item.nome)}#resultados`;
}

function setup(form: HTMLFormElement) {
  const maybeInput = form.querySelector<HTMLInputElement>('input[name="q"]');
  const maybeListbox = form.querySelector<HTMLUListElement>('[role="listbox"]');
  const maybeStatus = form.querySelector<HTMLElement>('[role="status"]');
  if (!maybeInput || !maybeListbox || !maybeStatus) return;
  const input: HTMLInputElement = maybeInput;
  const listbox: HTMLUListElement = maybeListbox;
  const status: HTMLElement = maybeStatus;

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', listbox.id);

  let items: Item[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | null = null;
  let shownQuery = '';

  const announce = (text: string) => {
    status.textContent = text;
  };

  const isOpen = () => !listbox.hidden;

  function close() {
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function open() {
    if (!items.length) return;
    listbox.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }

  function highlight(index: number) {
    active = index;
    const options = listbox.querySelectorAll<HTMLLIElement>('[role="option"]');
    options.forEach((li, i) => li.setAttribute('aria-selected', i === index ? 'true' : 'false'));
    const current = options[index];
    if (current) {
      input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function go(index: number) {
    const item = items[index];
    if (item) window.location.assign(hrefFor(item));
  }

  function render(found: Item[], query: string) {
    items = found;
    shownQuery = query;
    active = -1;
    const options = found.map((item, i) => {
      const li = document.createElement('li');
      li.id = `q-opcao-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      const name = document.createElement('span');
      name.className = 'opt-name';
      name.textContent = item.nome;
      const meta = document.createElement('span');
      meta.className = 'opt-meta';
      meta.textContent = item.tipo === 'unidade' ? ` · ${item.cidade ?? ''}` : ' · Plano';
      li.append(name, meta);
      // Keep focus in the input while tapping or clicking an option.
      li.addEventListener('mousedown', (e) => e.preventDefault());
      li.addEventListener('click', () => go(i));
      return li;
    });
    listbox.replaceChildren(...options);
    if (found.length) {
      open();
      announce(
        `${found.length} ${found.length === 1 ? 'resultado' : 'resultados'}. Use as setas para escolher e Enter para ` +
          `abrir.`,
      );
    } else {
      close();
      announce(`Nenhum resultado para “${query}”.`);
    }
  }

  async function run() {
    const query = input.value.trim();
    if ([...query].length < 2) {
      controller?.abort();
      items = [];
      listbox.replaceChildren();
      close();
      announce(query ? 'Digite pelo menos 2 letras.' : '');
      return;
    }
    if (query === shownQuery) {
      open();
      return;
    }
    controller?.abort();
    controller = new AbortController();
    try {
      const res = await fetch(`/search_ajax.php?q=${encodeURIComponent(query)}`, {
        headers: { accept: 'application/json' },
        signal: controller.signal,
      });
      const body: unknown = await res.json();
      if (!res.ok) {
        render([], query);
        const message = (body as { message?: string } | null)?.message;
        announce(message ?? 'Busca inválida.');
        return;
      }
      render(body as Item[], query);
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      announce('Não foi possível buscar agora. Use o botão Buscar.');
    }
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  });

  input.addEventListener('keydown', (e) => {
    switch (e.key) {
      case 'ArrowDown':
        if (!items.length) return;
        e.preventDefault();
        open();
        highlight(active + 1 >= items.length ? 0 : active + 1);
        break;
      case 'ArrowUp':
        if (!items.length) return;
        e.preventDefault();
        open();
        highlight(active <= 0 ? items.length - 1 : active - 1);
        break;
      case 'Enter':
        // With an option chosen, open it; otherwise the form submits (server-side results).
        if (isOpen() && active >= 0) {
          e.preventDefault();
          go(active);
        }
        break;
      case 'Escape':
        if (isOpen()) {
          e.preventDefault();
          close();
        }
        break;
      default:
        break;
    }
  });

  input.addEventListener('blur', () => close());
  input.addEventListener('focus', () => {
    if (items.length && input.value.trim() === shownQuery) open();
  });
}

document.querySelectorAll<HTMLFormElement>('form[data-search]').forEach(setup);
