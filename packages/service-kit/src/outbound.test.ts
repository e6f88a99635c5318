import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPublicUrl, fetchPublic, privateHosts, sendPublic } from './outbound.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/page' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/big') return void res.end('x'.repeat(10_000));
    if (req.url === '/echo') {
      let body = '';
      req.on('data', (c) => (body += c));
      return void req.on('end', () =>
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, type: req.headers['content-type'], body })),
      );
    }
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
    await expect(checkPublicUrl('https://93.184.215.14/repo.git', { allowPrivateNetwork: false })).resolves.toMatchObject({ addresses: ['93.184.215.14'], privateAddress: false });
  });

  it('allows private addresses when told to, and says the address is private', async () => {
    await expect(checkPublicUrl('http://127.0.0.1:9/', { allowPrivateNetwork: true })).resolves.toMatchObject({ addresses: ['127.0.0.1'], privateAddress: true });
  });

  it('lets through the private hosts listed, and no other private address', async () => {
    const privateHosts = ['127.0.0.2', '10.8.0.0/16', 'fd00::/8'];
    await expect(checkPublicUrl('http://127.0.0.2:9/', { allowPrivateNetwork: false, privateHosts })).resolves.toMatchObject({ addresses: ['127.0.0.2'] });
    await expect(checkPublicUrl('https://10.8.3.4/repo.git', { allowPrivateNetwork: false, privateHosts })).resolves.toMatchObject({ addresses: ['10.8.3.4'] });
    await expect(checkPublicUrl('https://[fd00::5]/', { allowPrivateNetwork: false, privateHosts })).resolves.toMatchObject({ addresses: ['fd00::5'] });
    for (const url of ['http://127.0.0.1:9/', 'http://10.9.0.1/', 'http://169.254.169.254/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/'])
      await expect(checkPublicUrl(url, { allowPrivateNetwork: false, privateHosts }), url).rejects.toThrow(/private or reserved address/);
  });

  it('reads the private hosts from QUIRE_PRIVATE_HOSTS, refusing a malformed entry', () => {
    expect(privateHosts({ QUIRE_PRIVATE_HOSTS: ' 127.0.0.2, 192.168.40.0/24 ,' })).toEqual(['127.0.0.2', '192.168.40.0/24']);
    expect(privateHosts({})).toEqual([]);
    expect(() => privateHosts({ QUIRE_PRIVATE_HOSTS: '10.0.0.0/8,git.internal' })).toThrow('QUIRE_PRIVATE_HOSTS: "git.internal" is not an IP address or a CIDR range');
    expect(() => privateHosts({ QUIRE_PRIVATE_HOSTS: '10.0.0.0/33' })).toThrow(/"10\.0\.0\.0\/33" is not/);
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

  it('fetches from a listed private host, and refuses a redirect from it to another private address', async () => {
    const listedOnly = { allowPrivateNetwork: false, privateHosts: ['127.0.0.2'] };
    const other = createServer((_req, res) => void res.writeHead(302, { location: `${base}/page` }).end());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    try {
      const at = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
      // Reached (it answered the redirect), but not followed to 127.0.0.1.
      await expect(fetchPublic(`${at}/`, { ...limits, maxRedirects: 0 }, listedOnly)).rejects.toThrow(/too many redirects/);
      await expect(fetchPublic(`${at}/`, limits, listedOnly)).rejects.toThrow(/url: cannot fetch http:\/\/127\.0\.0\.1:\d+\/page: .*is not allowed/);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('bounds redirects, size and time', async () => {
    const allow = { allowPrivateNetwork: true };
    await expect(fetchPublic(`${base}/loop`, limits, allow)).rejects.toThrow(/too many redirects/);
    await expect(fetchPublic(`${base}/big`, limits, allow)).rejects.toThrow(/larger than 1000 bytes/);
    await expect(fetchPublic(`${base}/slow`, { maxBytes: 1_000, timeoutMs: 200 }, allow)).rejects.toThrow(/did not answer in time/);
  });
});

describe('sendPublic', () => {
  const allow = { allowPrivateNetwork: true };

  it('sends a method, headers and a body, and answers what came back', async () => {
    const got = await sendPublic(`${base}/echo`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: Buffer.from('hi') }, limits, allow);
    expect(got.status).toBe(201);
    expect(JSON.parse(got.body.toString())).toEqual({ method: 'PUT', type: 'text/plain', body: 'hi' });
  });

  it('shows a redirect without following it, refuses loopback at connect time, and bounds size and time', async () => {
    const moved = await sendPublic(`${base}/redirect`, { method: 'GET', headers: {} }, limits, allow);
    expect(moved).toMatchObject({ status: 302, headers: { location: '/page' } });
    await expect(sendPublic(`${base}/echo`, { method: 'POST', headers: {} }, limits, { allowPrivateNetwork: false })).rejects.toThrow(/url: cannot fetch .*is not allowed/);
    await expect(sendPublic(`${base}/big`, { method: 'GET', headers: {} }, limits, allow)).rejects.toThrow(/larger than 1000 bytes/);
    await expect(sendPublic(`${base}/slow`, { method: 'GET', headers: {} }, { maxBytes: 1_000, timeoutMs: 200 }, allow)).rejects.toThrow(/did not answer in time/);
  });
});
