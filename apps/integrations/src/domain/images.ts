// Published images are stored as bytes and shown as `data:` URIs; the media type is read from the
// bytes' signature, since the publish request does not say it.
const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['image/x-icon', (b) => b.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0]))],
  ['image/svg+xml', (b) => /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(b.subarray(0, 512).toString('utf8'))],
];

export function mediaTypeOf(bytes: Uint8Array): string {
  const b = Buffer.from(bytes);
  return SIGNATURES.find(([, test]) => test(b))?.[0] ?? 'application/octet-stream';
}

export function dataUri(bytes: Uint8Array): string {
  return `data:${mediaTypeOf(bytes)};base64,${Buffer.from(bytes).toString('base64')}`;
}
