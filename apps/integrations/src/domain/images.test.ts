import { describe, expect, it } from 'vitest';
import { dataUri, mediaTypeOf } from './images.ts';

describe('images', () => {
  it('tells the media type from the signature', () => {
    expect(mediaTypeOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(mediaTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(mediaTypeOf(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(mediaTypeOf(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe('image/svg+xml');
    expect(mediaTypeOf(Buffer.from('hello'))).toBe('application/octet-stream');
  });

  it('makes a data URI of the bytes', () => {
    expect(dataUri(Buffer.from('GIF89a'))).toBe(`data:image/gif;base64,${Buffer.from('GIF89a').toString('base64')}`);
  });
});
