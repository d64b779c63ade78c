// "Unidades perto de mim": with JavaScript and permission, the browser's location opens
// the form's page (/unidades, or the trial-class unit chooser) sorted by distance. Without
// either, the form is a plain link to that page (on /unidades a CEP or a city does the same
// on the server).

function setup(form: HTMLFormElement) {
  if (!('geolocation' in navigator)) return;
  const status = form.querySelector<HTMLElement>('[data-near-me-status]');
  const button = form.querySelector<HTMLButtonElement>('button');
  const target = form.getAttribute('action') || '/unidades';
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (button) button.disabled = true;
    say('Procurando a sua localização…');
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        const lat = pos.coords.latitude.toFixed(5);
        const lng = pos.coords.longitude.toFixed(5);
        say('Localização encontrada. Abrindo as unidades mais perto…');
        window.location.assign(`${target}?lat=${encodeURIComponent(lat)}&lng=${encodeURIComponent(lng)}`);
      },
      () => {
        if (button) button.disabled = false;
        say(form.dataset.nearMeError ?? 'Não foi possível usar a sua localização. Busque pelo CEP ou pela cidade.');
        if (target === '/unidades' && window.location.pathname !== '/unidades')
          window.location.assign('/unidades#buscar-local-titulo');
      },
      { enableHighAccuracy: false, timeout: 10_000, maximumAge: 300_000 },
    );
  });
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-near-me]')) setup(form);
export {};
