// The limits docs/interface.md (and the README's password rule) state are read from the constants the code
// enforces, so the two cannot drift apart again (free-message photos were once documented
// with two different sizes).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_BODY_LIMIT, FORM_MAX_NAMES, FORM_MAX_PAIRS } from '../../src/http/forms';
import { invalidBody } from '../../src/http/errors';
import { MAX_INPUT_PIXELS } from '../../src/platform/storage/images';
import { MAX_IMAGE_BYTES, MAX_IMAGES } from '../../src/features/feedback/messages/images';
import { MESSAGE_MAX } from '../../src/features/feedback/messages/fale-aqui.service';
import { FALE_AQUI_RATE_LIMIT } from '../../src/features/feedback/messages/fale-aqui.routes';
import { ALT_MAX, ALT_MIN, MAX_UNIT_PHOTO_BYTES, MAX_UNIT_PHOTOS } from '../../src/features/unit-photos/photos';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../../src/features/identity/login.service';
import { MIN_PASSWORD_LENGTH } from '../../src/features/identity/password';
import {
  RESET_MAX_PER_ADDRESS,
  RESET_MAX_PER_EMAIL,
  RESET_WINDOW_MS,
} from '../../src/features/identity/password-reset.service';
import { SEARCH_LIMIT, SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH } from '../../src/features/catalog/catalog.search';
import { NEAR_LIMIT_DEFAULT, NEAR_LIMIT_MAX } from '../../src/features/catalog/nearby';
import { FORM_RATE_LIMIT } from '../../src/features/franchise/form.routes';
import { BOOKING_RATE_LIMIT } from '../../src/features/booking/booking.routes';
import { ENVIO_WINDOW_MS } from '../../src/platform/envio';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
const readme = read('README.md');
const iface = read('docs/interface.md');

const MB = 1024 * 1024;
const minutes = (ms: number) => ms / 60_000;
const mp = MAX_INPUT_PIXELS / 1_000_000;

describe('README.md', () => {
  it('asks for the password length the code enforces', () => {
    expect(readme).toContain(`a password of at least ${MIN_PASSWORD_LENGTH} characters`);
  });
});

describe('the refused form of docs/interface.md', () => {
  it('gives the JSON shape that the code sends', () => {
    const keys = Object.keys(invalidBody({ campo: 'mensagem' }));
    expect(keys).toEqual(['error', 'message', 'errors']);
    expect(iface).toContain('`422 {"error", "message", "errors": {campo: mensagem}}`');
  });
});

describe('limits stated in docs/interface.md', () => {
  it.each([
    [`${SEARCH_MIN_LENGTH}–${SEARCH_MAX_LENGTH} characters; at most ${SEARCH_LIMIT} results`],
    [`\`limit\` 1–${NEAR_LIMIT_MAX}, default ${NEAR_LIMIT_DEFAULT}`],
    [`at most ${FORM_BODY_LIMIT / 1024} KB, ${FORM_MAX_PAIRS} fields and ${FORM_MAX_NAMES} field names`],
    [
      `1–${MESSAGE_MAX} characters; at most ${MAX_IMAGES} photos, each ≤ ${MAX_IMAGE_BYTES / MB} MB and ≤ ${mp} ` +
        `megapixels`,
    ],
    [`${MAX_UNIT_PHOTOS} per unit, each ≤ ${MAX_UNIT_PHOTO_BYTES / MB} MB and ≤ ${mp} megapixels`],
    [`alt text ${ALT_MIN}–${ALT_MAX} characters`],
    [`${LOGIN_MAX_FAILURES} failed attempts in ${minutes(LOGIN_WINDOW_MS)} minutes per account or per address`],
    [`at least ${MIN_PASSWORD_LENGTH} characters`],
    [
      `${RESET_MAX_PER_ADDRESS} per address and ${RESET_MAX_PER_EMAIL} per account in ` +
        `${minutes(RESET_WINDOW_MS)} minutes`,
    ],
    [`| franchise form | ${FORM_RATE_LIMIT.max} POSTs per address in ${minutes(FORM_RATE_LIMIT.timeWindow)} minutes |`],
    [`| free-message form | ${FALE_AQUI_RATE_LIMIT.max} POSTs per address per minute |`],
    [`${BOOKING_RATE_LIMIT.max} POSTs per address in ${minutes(BOOKING_RATE_LIMIT.timeWindow)} minutes`],
    [`remembered ${ENVIO_WINDOW_MS / 3_600_000} hours`],
    [`a photo over ${MAX_IMAGE_BYTES / MB} MB → 413`],
    [`more than ${mp} megapixels`],
  ])('%s', (phrase) => {
    expect(iface).toContain(phrase);
  });

  it('states each photo bound once: no other megapixel figure', () => {
    expect(FALE_AQUI_RATE_LIMIT.timeWindow).toBe(60_000);
    for (const text of [readme, iface]) {
      const figures = [...text.matchAll(/(\d+) (?:MP|megapixels)\b/g)].map((m) => Number(m[1]));
      // 48 MP is the phone photo the limit welcomes, not a limit.
      expect(figures.filter((n) => n !== mp && n !== 48)).toEqual([]);
    }
  });
});
