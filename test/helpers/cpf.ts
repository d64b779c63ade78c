// Valid CPFs for tests (check digits computed), a different one at each call in a process.
let seq = 0;

function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (digits.length + 1 - i);
  const r = (sum * 10) % 11;
  return r === 10 ? 0 : r;
}

/** A valid CPF, digits only; `start` keeps two files' series apart (9 digits at most). */
export function validCpf(start = 123_456_000): string {
  const base = String(start + ++seq * 7).padStart(9, '0');
  const d1 = checkDigit(base);
  return `${base}${d1}${checkDigit(base + d1)}`;
}
