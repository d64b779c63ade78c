// A static Pix "copia e cola" (EMV BR Code, BCB's Manual de Padrões para Iniciação do Pix):
// 00 payload format 01, 26 merchant account (GUI br.gov.bcb.pix + the key), 52 MCC 0000,
// 53 currency 986, 54 amount, 58 BR, 59 name, 60 city, 62/05 txid, 63 CRC16-CCITT-FALSE.
// The string is assembled by pix-utils, the QR image drawn by qrcode; both load on first use.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as EmvHandler from 'pix-utils/dist/main/emvHandler';
import type * as PixElements from 'pix-utils/dist/main/types/pixElements';

export interface PixCharge {
  /** The receiver's Pix key: e-mail, +55 phone, CPF/CNPJ digits or random key (EVP). */
  key: string;
  merchantName: string;
  merchantCity: string;
  /** Integer centavos, > 0. */
  amountCents: number;
  /** 1–25 letters and digits (see pixTxid). */
  txid: string;
}

const KEY_MAX = 77; // field 26 holds at most 99: "0014br.gov.bcb.pix" (18) + "01" + length (4) + key
const NAME_MAX = 25;
const CITY_MAX = 15;
const TXID = /^[A-Za-z0-9]{1,25}$/;
const AMOUNT_MAX_CENTS = 999_999_999_999; // field 54 holds at most 13 characters: 9999999999.99

// pix-utils' EMV assembler (and its CRC), not the package index: the index also loads axios for
// dynamic codes (~19 MB per process against ~1.5 MB). A process that never shows a Pix code
// loads neither (docs/decisions/135). The deep paths are the version pinned in package.json;
// test/platform/pix-brcode.test.ts decodes the result on its own and fails if they move.
const require = createRequire(import.meta.url);
let library: { createEmv: typeof EmvHandler.createEmv; STATIC: PixElements.PixElementType.STATIC } | undefined;
function pixUtils() {
  if (!library) {
    const { createEmv } = require('pix-utils/dist/main/emvHandler.js') as typeof EmvHandler;
    const { PixElementType } = require('pix-utils/dist/main/types/pixElements.js') as typeof PixElements;
    library = { createEmv, STATIC: PixElementType.STATIC };
  }
  return library;
}

/** Uppercase printable ASCII, accents folded ("São João d'Aliança" → "SAO JOAO D'ALIANCA"), cut to max. */
function emvText(value: string, max: number, field: string): string {
  const folded = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase()
    .slice(0, max)
    .trimEnd();
  if (!folded) throw new RangeError(`Pix: ${field} is empty once folded to ASCII`);
  return folded;
}

/** The EMV string of a static Pix charge with amount and txid ("copia e cola"). */
export function pixCopyPaste(charge: PixCharge): string {
  const { key, amountCents, txid } = charge;
  if (!key || key.length > KEY_MAX || !/^[\x21-\x7e]+$/.test(key))
    throw new RangeError(`Pix: the key must be 1–${KEY_MAX} printable ASCII characters without spaces`);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > AMOUNT_MAX_CENTS)
    throw new RangeError(`Pix: amountCents must be an integer from 1 to ${AMOUNT_MAX_CENTS}, not ${amountCents}`);
  if (!TXID.test(txid)) throw new RangeError('Pix: txid must be 1–25 letters and digits');
  const { createEmv, STATIC } = pixUtils();
  return createEmv({
    type: STATIC,
    merchantCategoryCode: '0000',
    transactionCurrency: '986',
    countryCode: 'BR',
    merchantName: emvText(charge.merchantName, NAME_MAX, 'merchantName'),
    merchantCity: emvText(charge.merchantCity, CITY_MAX, 'merchantCity'),
    pixKey: key,
    // pix-utils writes toFixed(2); an integer number of centavos / 100 rounds back exactly.
    transactionAmount: amountCents / 100,
    txid,
  });
}

/**
 * A txid for an enrolment: 25 uppercase hex characters of the SHA-256 of its code. The same
 * code always gives the same txid, and the txid (seen by the payer's bank and on statements)
 * does not reveal the code, which is the key of the enrolment's payment page.
 */
export function pixTxid(seed: string): string {
  if (!seed) throw new RangeError('Pix: pixTxid needs a non-empty seed');
  return createHash('sha256').update(seed, 'utf8').digest('hex').slice(0, 25).toUpperCase();
}
