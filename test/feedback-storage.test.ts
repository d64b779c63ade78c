import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage, UnsafePathError } from '../src/features/storage/index';
import { sanitizeOriginalName, sniffImageFormat } from '../src/features/feedback/images';

const root = mkdtempSync(path.join(os.tmpdir(), 'gym-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('local storage', () => {
  const storage = createLocalStorage(root);

  it('resolves only plain relative paths inside the root', () => {
    expect(storage.resolve('fale_aqui/2026/11/abc123.jpg')).toBe(path.join(root, 'fale_aqui/2026/11/abc123.jpg'));
    for (const bad of ['../x.jpg', '/etc/passwd', 'a/../../b.jpg', 'fale_aqui/../../x.png', 'a\\b.jpg', 'a/b', '', 'a//b.jpg', 'a/.b.jpg']) {
      expect(() => storage.resolve(bad), bad).toThrow(UnsafePathError);
    }
  });

  it('writes through a temporary name, reads back, removes idempotently', async () => {
    await storage.write('fale_aqui/2026/11/aa11.png', Buffer.from('conteudo'));
    expect(await storage.size('fale_aqui/2026/11/aa11.png')).toBe(8);
    expect(readdirSync(path.join(root, 'fale_aqui/2026/11'))).toEqual(['aa11.png']);
    const chunks: Buffer[] = [];
    for await (const c of storage.open('fale_aqui/2026/11/aa11.png')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('conteudo');
    await storage.remove('fale_aqui/2026/11/aa11.png');
    await storage.remove('fale_aqui/2026/11/aa11.png');
    expect(await storage.size('fale_aqui/2026/11/aa11.png')).toBeNull();
  });

  it('leaves no temporary file when the write fails', async () => {
    // a file where the folder should be: mkdir fails
    writeFileSync(path.join(root, 'bloqueado'), 'x');
    await expect(storage.write('bloqueado/2026/f.jpg', Buffer.from('x'))).rejects.toThrow();
    // the target exists as a directory: rename fails after the temp file was written
    await storage.write('dir/alvo.jpg', Buffer.from('a'));
    rmSync(path.join(root, 'dir/alvo.jpg'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(root, 'dir/alvo.jpg'));
    await expect(storage.write('dir/alvo.jpg', Buffer.from('b'))).rejects.toThrow();
    expect(readdirSync(path.join(root, 'dir'))).toEqual(['alvo.jpg']);
  });
});

describe('image helpers', () => {
  it('sniffs formats by their first bytes only', () => {
    expect(sniffImageFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageFormat(Buffer.from('GIF89a'))).toBeNull();
  });

  it('keeps the client filename only as bounded, printable metadata', () => {
    expect(sanitizeOriginalName('C:\\Users\\ana\\foto.jpg')).toBe('foto.jpg');
    expect(sanitizeOriginalName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeOriginalName('a\u202egpj.exe')).toBe('agpj.exe');
    expect(sanitizeOriginalName('linha\r\nquebrada.png')).toBe('linhaquebrada.png');
    expect(sanitizeOriginalName('')).toBeNull();
    expect([...(sanitizeOriginalName('é'.repeat(300)) ?? '')]).toHaveLength(120);
  });
});
