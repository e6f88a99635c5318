import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';

const run = promisify(execFile);

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_TERMINAL_PROMPT: '0',
};

export const gitIn = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 })).stdout;

/**
 * Bare repositories in a temp folder, served over smart HTTP by `git http-backend` (CGI) behind a
 * Node server on loopback (`host`), with basic auth when `auth` is given. Pushes are allowed, and
 * run the repositories' hooks.
 */
export async function startGitServer(auth?: { username: string; password: string }, host = '127.0.0.1') {
  const root = await mkdtemp(join(tmpdir(), 'quire-git-server-'));
  const server = http.createServer((req, res) => {
    if (auth) {
      const expected = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('unauthorized');
        return;
      }
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: auth?.username ?? 'anonymous',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let statusCode = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const at = line.indexOf(':');
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === 'status') statusCode = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.statusCode = statusCode;
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on('end', () => res.end());
    cgi.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    root,
    /** http://<host>:<port>/<name>.git, with the credentials when given. */
    url: (name: string, creds?: { username: string; password: string }) =>
      `http://${creds ? `${encodeURIComponent(creds.username)}:${encodeURIComponent(creds.password)}@` : ''}${host}:${port}/${name}.git`,
    fileUrl: (name: string) => pathToFileURL(join(root, `${name}.git`)).href,
    /** A new bare repository, with `files` committed on `branch` when given. */
    async create(name: string, files?: Record<string, string | Buffer>, branch = 'main') {
      const bare = join(root, `${name}.git`);
      await run('git', ['init', '--quiet', '--bare', bare], { env: GIT_ENV });
      if (files) await commitTo(bare, files, 'Initial content', branch);
      return bare;
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Commits `files` (null deletes one) on top of `branch` of the bare repository and pushes it. */
export async function commitTo(bare: string, files: Record<string, string | Buffer | null>, message: string, branch = 'main') {
  const work = await mkdtemp(join(tmpdir(), 'quire-git-work-'));
  try {
    await gitIn(work, 'init', '--quiet');
    const url = pathToFileURL(bare).href;
    const has = (await gitIn(work, 'ls-remote', url, `refs/heads/${branch}`)).trim() !== '';
    if (has) {
      await gitIn(work, 'fetch', '--quiet', url, `refs/heads/${branch}`);
      await gitIn(work, 'checkout', '--quiet', 'FETCH_HEAD');
    }
    for (const [path, data] of Object.entries(files)) {
      if (data === null) await rm(join(work, path), { force: true });
      else {
        await mkdir(dirname(join(work, path)), { recursive: true });
        await writeFile(join(work, path), data);
      }
    }
    await gitIn(work, 'add', '--all');
    await gitIn(work, 'commit', '--quiet', '-m', message);
    await gitIn(work, 'push', '--quiet', url, `HEAD:refs/heads/${branch}`);
    return (await gitIn(work, 'rev-parse', 'HEAD')).trim();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The files of `branch` of a bare repository (text), and its commit count. */
export async function readRepo(bare: string, branch = 'main'): Promise<{ files: Record<string, string>; commits: number; head: string }> {
  const work = await mkdtemp(join(tmpdir(), 'quire-git-read-'));
  try {
    await gitIn(work, 'clone', '--quiet', '--branch', branch, pathToFileURL(bare).href, '.');
    const paths = (await gitIn(work, 'ls-files', '-z')).split('\0').filter(Boolean);
    const files: Record<string, string> = {};
    for (const p of paths) files[p] = await readFile(join(work, p), 'utf8');
    const commits = Number((await gitIn(work, 'rev-list', '--count', 'HEAD')).trim());
    return { files, commits, head: (await gitIn(work, 'rev-parse', 'HEAD')).trim() };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** `git diff --stat` between two commits of a bare repository: empty when their trees are the same. */
export const diffStat = async (bare: string, from: string, to: string) => (await gitIn(bare, 'diff', '--stat', from, to)).trim();

/** The paths a commit changed against its parent. */
export const changedPaths = async (bare: string, commit: string) => (await gitIn(bare, 'diff', '--name-only', `${commit}~1`, commit)).split('\n').filter(Boolean);
