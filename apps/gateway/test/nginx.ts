import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { reservedPort } from '@quire/service-kit/testing';

/** The example proxy (infra/proxy/nginx.conf) and the names it serves. */
const EXAMPLE = new URL('../../../infra/proxy/nginx.conf', import.meta.url);
export const API_NAME = 'quire.example.com';
export const SITES_NAME = 'docs.example.com';

function nginxBinary(): string {
  const found = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'].map((dir) => join(dir, 'nginx')).find((p) => existsSync(p));
  // Not skipped: a test that cannot run its proxy says so. .ci/run installs it with the other system packages.
  if (!found) throw new Error('nginx is not installed: `apt-get install -y nginx` (.ci/run installs it)');
  return found;
}

/**
 * The example file with its deploy-specific lines set for this machine: upstreams on 127.0.0.1
 * ports, and its listeners on free loopback ports. Each line must be found, so a change of the
 * example that the test no longer follows fails here rather than testing something else.
 */
function forThisMachine(example: string, at: { gateway: number; reader: number; https: number; http: number }): string {
  const edits: [string, string][] = [
    ['server gateway:8080;', `server 127.0.0.1:${at.gateway};`],
    ['server reader:8090;', `server 127.0.0.1:${at.reader};`],
    ['listen 443 ssl;', `listen 127.0.0.1:${at.https} ssl;`],
    ['listen 80;', `listen 127.0.0.1:${at.http};`],
  ];
  return edits.reduce((text, [line, local]) => {
    if (!text.includes(line)) throw new Error(`infra/proxy/nginx.conf has no "${line}" any more: update the proxy tests`);
    return text.replaceAll(line, local);
  }, example);
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The CA the server's certificate must chain to (https URLs). */
  ca?: string;
}

/**
 * One request from the client address `from` on a connection of its own, to 127.0.0.1 whatever
 * name `url` has (that name goes in SNI and Host). On Linux every 127.0.0.0/8 address is local,
 * so each test client can have an address of its own.
 */
export function send(from: string, url: string, { method = 'GET', headers = {}, body, ca }: SendOptions = {}): Promise<Answer> {
  const u = new URL(url);
  const options = { host: '127.0.0.1', port: u.port, path: `${u.pathname}${u.search}`, method, localAddress: from, agent: false as const, headers: { host: u.host, ...headers } };
  return new Promise((resolve, reject) => {
    const req = u.protocol === 'https:' ? https.request({ ...options, servername: u.hostname, ca }) : http.request(options);
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.end(body);
  });
}

async function accepting(port: number, exited: () => string | undefined): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const gone = exited();
    if (gone !== undefined) throw new Error(`nginx stopped at start:\n${gone}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx does not accept connections on port ${port}`);
}

/**
 * The example proxy, run by the real nginx as a child process in front of the gateway and the
 * reader listening on these 127.0.0.1 ports, with a self-signed certificate for its two names made
 * for it. `url(name, path)` is where a client reaches it over TLS; `send` with `ca` trusts it.
 */
export async function startProxy(upstreams: { gateway: number; reader: number }) {
  const nginx = nginxBinary();
  const dir = mkdtempSync(join(tmpdir(), 'quire-proxy-'));
  mkdirSync(join(dir, 'tls'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${API_NAME}`],
      ...['-addext', `subjectAltName=DNS:${API_NAME},DNS:${SITES_NAME}`, '-keyout', join(dir, 'tls/quire.key'), '-out', join(dir, 'tls/quire.crt')],
    ],
    { stdio: 'ignore' },
  );
  const ports = { https: await reservedPort(), http: await reservedPort() };
  writeFileSync(join(dir, 'quire.conf'), forThisMachine(readFileSync(EXAMPLE, 'utf8'), { ...upstreams, ...ports }));
  // What the distribution's nginx.conf around it would say, kept inside this directory.
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join(' ');
  writeFileSync(join(dir, 'nginx.conf'), `worker_processes 1;\nevents { worker_connections 256; }\nhttp { access_log off; ${temp} include quire.conf; }\n`);

  let stderr = '';
  let exited: string | undefined;
  const child = spawn(nginx, ['-e', 'stderr', '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', `daemon off; pid ${join(dir, 'nginx.pid')}; error_log stderr warn;`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.on('exit', (code, signal) => (exited = `${stderr}(exit ${code ?? signal})`));
  // A test process that ends without stopping it does not leave it holding its ports.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  await accepting(ports.https, () => exited);

  const ca = readFileSync(join(dir, 'tls/quire.crt'), 'utf8');
  return {
    ca,
    ports,
    url: (name: string, path: string) => `https://${name}:${ports.https}${path}`,
    send: (from: string, url: string, options: SendOptions = {}) => send(from, url, { ca, ...options }),
    async stop() {
      process.off('exit', kill);
      if (exited === undefined) await new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
