// The static Pix BR Code, checked by a second implementation written here (a TLV reader and
// its own bitwise CRC16-CCITT-FALSE), and its QR SVG read back with jsQR.
import { createRequire } from 'node:module';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { qrSvg } from '../../src/lib/qr';
import { type PixCharge, pixCopyPaste, pixTxid } from '../../src/platform/payments/pix/brcode';

/** EMV TLV: two-digit id, two-digit length, value; in order, nothing left over. */
function tlv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const len = Number(text.slice(at + 2, at + 4));
    expect(id).toMatch(/^\d\d$/);
    expect(Number.isInteger(len) && at + 4 + len <= text.length).toBe(true);
    expect(out.has(id)).toBe(false);
    out.set(id, text.slice(at + 4, at + 4 + len));
    at += 4 + len;
  }
  return out;
}

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const charge: PixCharge = {
  key: 'financeiro@academia.com.br',
  merchantName: 'Academia Força & Saúde Ltda',
  merchantCity: 'São João del-Rei',
  amountCents: 12345,
  txid: 'MAT2026ABC123',
};

describe('pixCopyPaste', () => {
  it('writes every field of a static code, and a CRC that a second implementation agrees with', () => {
    expect(crc16('123456789')).toBe('29B1'); // the catalogue check value of CRC-16/CCITT-FALSE
    const manual = // the example of BCB's manual (a random key, no amount)
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
      '5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    expect(crc16(manual.slice(0, -4))).toBe(tlv(manual).get('63'));
    const code = pixCopyPaste(charge);
    expect(code).toMatch(/^[\x20-\x7e]+$/);
    const fields = tlv(code);
    expect([...fields.keys()]).toEqual(['00', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(fields.get('00')).toBe('01');
    const account = tlv(fields.get('26') ?? '');
    expect(account.get('00')?.toLowerCase()).toBe('br.gov.bcb.pix');
    expect(account.get('01')).toBe(charge.key);
    expect(fields.get('52')).toBe('0000');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('123.45');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('ACADEMIA FORCA & SAUDE LT'); // 25 characters
    expect(fields.get('60')).toBe('SAO JOAO DEL-RE'); // 15 characters
    expect(tlv(fields.get('62') ?? '').get('05')).toBe('MAT2026ABC123');
    expect(code.slice(-8, -4)).toBe('6304');
    expect(fields.get('63')).toBe(crc16(code.slice(0, -4)));
  });

  it('writes centavos exactly, whatever the amount', () => {
    for (const [cents, text] of [
      [1, '0.01'],
      [10, '0.10'],
      [100, '1.00'],
      [2990, '29.90'],
      [1005, '10.05'],
      [999_999_999_999, '9999999999.99'],
    ] as const)
      expect(tlv(pixCopyPaste({ ...charge, amountCents: cents })).get('54')).toBe(text);
    for (let cents = 1; cents < 100_000; cents += 97) {
      const amount = tlv(pixCopyPaste({ ...charge, amountCents: cents })).get('54');
      expect(amount).toBe(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
    }
  });

  it('refuses what would make an invalid code', () => {
    for (const bad of [0, -100, 12.5, Number.NaN, 1e15])
      expect(() => pixCopyPaste({ ...charge, amountCents: bad })).toThrow(/amountCents/);
    for (const txid of ['', 'ABC-123', 'A'.repeat(26), '***', 'ÇA'])
      expect(() => pixCopyPaste({ ...charge, txid })).toThrow(/txid/);
    for (const key of ['', 'k'.repeat(78), 'com espaço@x.com'])
      expect(() => pixCopyPaste({ ...charge, key })).toThrow(/key/);
    expect(tlv(tlv(pixCopyPaste({ ...charge, key: 'k'.repeat(77) })).get('26') ?? '').get('01')).toHaveLength(77);
    expect(() => pixCopyPaste({ ...charge, merchantName: '  ' })).toThrow(/merchantName/);
    expect(() => pixCopyPaste({ ...charge, merchantCity: '東京' })).toThrow(/merchantCity/);
  });

  it('does not load axios (pix-utils index) in the process', () => {
    pixCopyPaste(charge);
    const cache = createRequire(import.meta.url).cache;
    expect(Object.keys(cache).some((file) => file.includes('/pix-utils/'))).toBe(true);
    expect(Object.keys(cache).some((file) => file.includes('/node_modules/axios/'))).toBe(false);
  });
});

describe('pixTxid', () => {
  it('is 25 letters and digits, the same for the same code, and does not contain the code', () => {
    const code = 'Xk3_9fQ-a8ZpLm2vR7tY0wBcD4eF6gH';
    const txid = pixTxid(code);
    expect(txid).toMatch(/^[A-Z0-9]{25}$/);
    expect(pixTxid(code)).toBe(txid);
    expect(pixTxid(`${code}x`)).not.toBe(txid);
    expect(txid).not.toContain(code.slice(0, 6).toUpperCase());
    expect(tlv(tlv(pixCopyPaste({ ...charge, txid })).get('62') ?? '').get('05')).toBe(txid);
    expect(() => pixTxid('')).toThrow();
  });
});

describe('qrSvg of a Pix code', () => {
  it('draws a QR code that reads back as the payload', async () => {
    const code = pixCopyPaste({ ...charge, txid: pixTxid('enrolment-42') });
    const svg = await qrSvg(code);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 (\d+) \1"/);
    expect(svg).not.toMatch(/<script|style=/i);
    // Rasterise qrcode's path (M x y.5 / m dx 0 / h n, one module per unit) at 4 px a module.
    const size = Number(/viewBox="0 0 (\d+)/.exec(svg)?.[1]);
    const d = /stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
    const scale = 4;
    const px = size * scale;
    const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
    let x = 0;
    let y = 0;
    for (const [, cmd, a, b] of d.matchAll(/([MmHh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
      if (cmd === 'M') [x, y] = [Number(a), Math.floor(Number(b))];
      else if (cmd === 'm') [x, y] = [x + Number(a), y + Math.floor(Number(b ?? 0))];
      else {
        for (let col = x; col < x + Number(a); col++)
          for (let dy = 0; dy < scale; dy++)
            for (let dx = 0; dx < scale; dx++) {
              const at = ((y * scale + dy) * px + col * scale + dx) * 4;
              rgba.fill(0, at, at + 3);
            }
        x += Number(a);
      }
    }
    expect(jsQR(rgba, px, px)?.data).toBe(code);
  });
});
