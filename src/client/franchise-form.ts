// Franchise form: a WhatsApp input mask "(11) 98765-4321" as the person types. The
// server normalises and validates anyway; without JS the field takes any format.
function mask(digits: string): string {
  const d = digits.slice(0, 11);
  if (d.length <= 2) return d.length ? `(${d}` : '';
  const area = `(${d.slice(0, 2)}) `;
  const rest = d.slice(2);
  if (rest.length <= 4) return area + rest;
  // 9-digit mobiles split 5-4, 8-digit landlines 4-4.
  const head = d.length === 11 ? 5 : 4;
  return `${area}${rest.slice(0, head)}-${rest.slice(head)}`;
}

const input = document.querySelector<HTMLInputElement>('input[name="whatsapp"]');
if (input) {
  const apply = () => {
    let digits = input.value.replace(/\D/g, '');
    // A pasted "+55 11 …" keeps working.
    if (digits.length > 11 && digits.startsWith('55')) digits = digits.slice(2);
    const atEnd = input.selectionStart === input.value.length;
    input.value = mask(digits);
    if (atEnd) input.setSelectionRange(input.value.length, input.value.length);
  };
  input.addEventListener('input', apply);
  if (input.value) apply();
}
