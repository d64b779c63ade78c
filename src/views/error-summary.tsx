// The error summary shown at the top of a form answered with 422: it takes the focus
// (autofocus on a tabindex=-1 box, no script needed) and links to each invalid field, so
// a person on a phone or with a screen reader learns at once what to fix and where.
// Small on purpose: the shared form kit can absorb it.

export interface SummaryItem {
  /** id of the input to jump to */
  field: string;
  label: string;
  message?: string;
}

export function ErrorSummary({ items, id = 'erros' }: { items: SummaryItem[]; id?: string }) {
  if (!items.length) return null;
  return (
    <div class="error-summary" id={id} role="alert" tabIndex={-1} autofocus aria-labelledby={`${id}-titulo`} data-error-summary>
      <h2 id={`${id}-titulo`}>{items.length === 1 ? 'Revise 1 campo' : `Revise ${items.length} campos`}</h2>
      <ul>
        {items.map((i) => (
          <li key={i.field}>
            <a href={`#${i.field}`}>
              {i.label}
              {i.message ? `: ${i.message}` : ''}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
