// Content screens: a filter box above long checkbox lists (units by city, plans by period).
// Without JavaScript the lists still work: one collapsible block per group.
function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

let counter = 0;
for (const list of document.querySelectorAll<HTMLFieldSetElement>('fieldset[data-checklist]')) {
  const id = `checklist-filtro-${++counter}`;
  const wrap = document.createElement('div');
  wrap.className = 'field checklist-filter';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = 'Filtrar a lista';
  const input = document.createElement('input');
  input.type = 'search';
  input.id = id;
  input.autocomplete = 'off';
  wrap.append(label, input);
  list.querySelector('legend')?.after(wrap);
  const groups = [...list.querySelectorAll<HTMLDetailsElement>('details')];
  const initiallyOpen = new Map(groups.map((d) => [d, d.open]));
  input.addEventListener('input', () => {
    const words = fold(input.value).split(/\s+/).filter(Boolean);
    for (const details of groups) {
      const group = fold(details.querySelector('summary')?.textContent ?? '');
      let shown = 0;
      for (const choice of details.querySelectorAll<HTMLLabelElement>('label.choice')) {
        const text = `${group} ${fold(choice.textContent ?? '')}`;
        const match = words.every((w) => text.includes(w));
        choice.hidden = !match;
        if (match) shown++;
      }
      details.hidden = shown === 0;
      details.open = words.length ? shown > 0 : (initiallyOpen.get(details) ?? false);
    }
  });
  // Enter in the filter box must not submit the whole form.
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') event.preventDefault();
  });
}
