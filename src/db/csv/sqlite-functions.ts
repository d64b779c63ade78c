// What SQLite lacks to write the exports' cells (./sql.ts): São Paulo time for the instants of
// the daylight-saving years (it has no time-zone tables) and a phone's digits (it has no regular
// expressions). Registered on every SQLite connection: the main one here (src/db/index.ts) and
// the read worker's, which receives this function as source text (src/db/sqlite-reader.ts), so
// it uses nothing from outside its own body.

interface FunctionHost {
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
}

/** `dateTimeOptions`: formatDateTime's (DATE_TIME_FORMAT, src/lib/time.ts), passed in: this runs in the worker too. */
export function registerCsvFunctions(sqlite: FunctionHost, dateTimeOptions: Intl.DateTimeFormatOptions): void {
  const dateTime = new Intl.DateTimeFormat('pt-BR', dateTimeOptions);
  sqlite.function('csv_data_hora', { deterministic: true }, (value) =>
    value === null ? null : dateTime.format(new Date(String(value))).replace(',', ''),
  );
  // Digits only, one leading 55 (Brazil's country code) dropped: the general rule of formatPhone.
  sqlite.function('csv_digitos_telefone', { deterministic: true }, (value) =>
    value === null ? null : String(value).replace(/\D/g, '').replace(/^55/, ''),
  );
}
