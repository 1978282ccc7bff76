import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isValidNuban, nubanCheckDigit } from '../../src/providers/identity.js';
import { createLocalStorage, createS3Storage } from '../../src/providers/storage.js';
import { namesMatch, sniffContentType } from '../../src/modules/kyc/service.js';

describe('NUBAN', () => {
  it('computes the CBN check digit (3-digit codes padded to 6)', () => {
    expect(nubanCheckDigit('011', '000001457')).toBe(9);
    expect(isValidNuban('011', '0000014579')).toBe(true);
    expect(isValidNuban('011', '0000014578')).toBe(false);
    expect(isValidNuban('011', '000001457')).toBe(false);
    expect(isValidNuban('11', '0000014579')).toBe(false);
  });
});

describe('namesMatch', () => {
  it('matches the words of the shorter name in any order, needing two words', () => {
    expect(namesMatch('Ada Grace Obi', 'OBI ADA')).toBe(true);
    expect(namesMatch('obi, ada-grace', 'Ada Grace Obi')).toBe(true);
    expect(namesMatch('Adébáyọ̀ Ògúnlẹ̀sí', 'ADEBAYO OGUNLESI')).toBe(true);
    expect(namesMatch('Ada Obi', 'Ada Okeke')).toBe(false);
    expect(namesMatch('Ada', 'Ada Obi')).toBe(false);
    expect(namesMatch(null, 'Ada Obi')).toBe(false);
  });
});

describe('sniffContentType', () => {
  it('reads magic bytes, not names', () => {
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('%PDF-1.4'))).toBe('application/pdf');
    expect(sniffContentType(Buffer.from('GIF89a'))).toBe(null);
    expect(sniffContentType(Buffer.from([0xff, 0xd8]))).toBe(null);
  });
});

describe('storage adapters', () => {
  it('local storage keeps files under its root and refuses traversal keys', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-store-'));
    const s = createLocalStorage(root);
    await s.put('kyc/u1/abc.png', Buffer.from('x'), 'image/png');
    expect(fs.existsSync(path.join(root, 'kyc/u1/abc.png'))).toBe(true);
    expect(await s.open('kyc/u1/abc.png', 'image/png')).toEqual({ kind: 'bytes', bytes: Buffer.from('x') });
    expect(await s.open('kyc/u1/missing.png', 'image/png')).toBe(null);
    for (const bad of ['../x', 'kyc/../../etc/passwd', '/etc/passwd', 'kyc/./x', 'kyc//x']) {
      await expect(s.put(bad, Buffer.from('x'), 'image/png')).rejects.toThrow(/invalid storage key/);
      await expect(s.open(bad, 'image/png')).rejects.toThrow(/invalid storage key/);
    }
  });

  it('S3 storage answers with a presigned GET carrying our cache and type headers', async () => {
    const s = createS3Storage({
      bucket: 'kyc-bucket',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    const o = await s.open('kyc/u1/abc.png', 'image/png');
    expect(o?.kind).toBe('redirect');
    const url = new URL((o as { url: string }).url);
    expect(url.pathname).toBe('/kyc-bucket/kyc/u1/abc.png');
    expect(url.searchParams.get('response-cache-control')).toBe('private, no-store');
    expect(url.searchParams.get('response-content-type')).toBe('image/png');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});
