// Free-message posts with photos, as a browser sends them (multipart/form-data).
import { deflateSync, crc32 } from 'node:zlib';
import type { App } from '../../src/app';
import { fetchForm } from './http';

export const FALE_AQUI_FORM = '/NPS/nps_app_php/fale_aqui.php';
export const FALE_AQUI_POST = '/NPS/nps_app_php/salvar_fale_aqui.php';

export interface FilePart {
  name: string;
  type: string;
  data: Buffer;
  field?: string;
}

export async function multipartBody(fields: Record<string, string> | [string, string][], files: FilePart[] = []) {
  const fd = new FormData();
  for (const [k, v] of Array.isArray(fields) ? fields : Object.entries(fields)) fd.append(k, v);
  for (const f of files)
    fd.append(f.field ?? 'arquivos[]', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

let ip = 0;
/** Each post from its own address: the form allows 10 POSTs a minute per address. */
export const nextAddress = () => `10.77.${(++ip >> 8) & 255}.${ip & 255}`;

export async function postMessage(
  app: App,
  fields: Record<string, string>,
  files: FilePart[] = [],
  opts: { accept?: string } = {},
) {
  const { token, cookie } = await fetchForm(app, FALE_AQUI_FORM, '_token');
  const body = await multipartBody({ _token: token, ...fields }, files);
  return app.inject({
    method: 'POST',
    url: FALE_AQUI_POST,
    remoteAddress: nextAddress(),
    headers: { cookie, 'content-type': body.contentType, ...(opts.accept ? { accept: opts.accept } : {}) },
    payload: body.payload,
  });
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

/** A decompression bomb: a valid PNG header announcing width × height, a few hundred bytes in all. */
export function pngBomb(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  // A few zero rows compressed: the decoder would have to inflate width × height × 3 bytes.
  const idat = deflateSync(Buffer.alloc(64 * 1024));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real 16 × 16 JPEG whose frame header (SOF) is patched to announce 65000 × 65000 pixels. */
export async function jpegBomb(): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  const jpeg = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer(),
  );
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2)) {
      jpeg.writeUInt16BE(65000, i + 5); // height
      jpeg.writeUInt16BE(65000, i + 7); // width
      return jpeg;
    }
  }
  throw new Error('no SOF marker');
}
