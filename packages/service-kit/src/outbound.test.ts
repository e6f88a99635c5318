import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPublicUrl, fetchPublic } from './outbound.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/page' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/big') return void res.end('x'.repeat(10_000));
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>page</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const limits = { maxBytes: 1_000, timeoutMs: 1_000 };

describe('checkPublicUrl', () => {
  it.each(['http://127.0.0.1/', 'http://localhost:8080/x', 'http://10.1.2.3/', 'http://192.168.0.1/', 'http://169.254.169.254/latest', 'http://[::1]/', 'http://0.0.0.0/'])(
    'refuses %s',
    async (url) => {
      await expect(checkPublicUrl(url, { field: 'body.url', allowPrivateNetwork: false })).rejects.toThrow(/body\.url: .*private or reserved address/);
    },
  );

  it('accepts public addresses and says which it checked', async () => {
    await expect(checkPublicUrl('https://93.184.215.14/repo.git', { allowPrivateNetwork: false })).resolves.toMatchObject({ addresses: ['93.184.215.14'] });
  });

  it('allows private addresses when told to', async () => {
    await expect(checkPublicUrl('http://127.0.0.1:9/', { allowPrivateNetwork: true })).resolves.toMatchObject({ addresses: ['127.0.0.1'] });
  });

  it('refuses other schemes and non-URLs, naming the field', async () => {
    await expect(checkPublicUrl('file:///etc/passwd', { field: 'url' })).rejects.toThrow('url: file: URLs are not allowed (http:, https:)');
    await expect(checkPublicUrl('not a url', { field: 'url' })).rejects.toThrow('url: "not a url" is not a URL');
  });
});

describe('fetchPublic', () => {
  it('refuses loopback at connect time', async () => {
    await expect(fetchPublic(`${base}/page`, limits, { allowPrivateNetwork: false })).rejects.toThrow(/url: cannot fetch .*is not allowed/);
  });

  it('fetches, following redirects, when private addresses are allowed', async () => {
    const got = await fetchPublic(`${base}/redirect`, limits, { allowPrivateNetwork: true });
    expect(got).toMatchObject({ url: `${base}/page`, status: 200, contentType: 'text/html' });
    expect(got.body.toString()).toBe('<h1>page</h1>');
  });

  it('bounds redirects, size and time', async () => {
    const allow = { allowPrivateNetwork: true };
    await expect(fetchPublic(`${base}/loop`, limits, allow)).rejects.toThrow(/too many redirects/);
    await expect(fetchPublic(`${base}/big`, limits, allow)).rejects.toThrow(/larger than 1000 bytes/);
    await expect(fetchPublic(`${base}/slow`, { maxBytes: 1_000, timeoutMs: 200 }, allow)).rejects.toThrow(/did not answer in time/);
  });
});
