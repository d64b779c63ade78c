// Pieces the feedback pages share: the submit button and privacy line under the public
// forms (survey, "Fale aqui"), and the <head> of the pages drawn without the site layout
// (kiosk, printable poster).
import type { ComponentChildren } from 'preact';

export function SubmitAndPrivacy({ label }: { label: string }) {
  return (
    <>
      <p>
        <button type="submit" class="button big-button">
          {label}
        </button>
      </p>
      <p class="hint">
        <a href="/privacidade">Aviso de privacidade</a>: o que guardamos, por quê e por quanto tempo.
      </p>
    </>
  );
}

/** A page outside the site layout: not indexed, its own stylesheet (and scripts as children). */
export function StandaloneHead({
  title,
  stylesheet,
  children,
}: {
  title: string;
  stylesheet: string;
  children?: ComponentChildren;
}) {
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex, nofollow" />
      <title>{title}</title>
      <link rel="stylesheet" href={stylesheet} />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      {children}
    </head>
  );
}
