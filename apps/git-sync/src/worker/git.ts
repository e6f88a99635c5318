import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { checkPublicUrl } from '@quire/service-kit/outbound';
import type { Credentials } from '../domain/sealed.ts';

/**
 * A git command that failed: `message` is safe to show (credentials never reach git's arguments).
 * `transient` when the network or the host failed (a later attempt may pass), not the request:
 * refused credentials, a missing repository or ref are not.
 */
export class GitError extends Error {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

// What git and curl say when the connection or the host's server failed.
const TRANSIENT =
  /could not resolve host|failed to connect|connection (refused|reset|timed out)|operation timed out|returned error: 5\d\d|rpc failed|early eof|remote end hung up|transfer closed|empty reply from server/i;

export interface GitTarget {
  /** The URL without credentials. */
  url: string;
  credentials?: Credentials;
  /** `host:port:address` pins from the URL check, so git connects where the check looked. */
  resolve: string[];
}

/** `url` as git may reach it: checked now (DNS may have changed), its host pinned to the addresses checked. */
export async function pinnedTarget(raw: string, credentials: Credentials | undefined, opts: { allowFileRemotes: boolean; allowPrivateNetwork: boolean }): Promise<GitTarget> {
  const protocols = opts.allowFileRemotes ? ['https:', 'http:', 'file:'] : ['https:', 'http:'];
  const { url, addresses } = await checkPublicUrl(raw, { field: 'url', protocols, allowPrivateNetwork: opts.allowPrivateNetwork });
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const resolve = addresses.length > 0 ? [`${url.hostname.replace(/^\[|\]$/g, '')}:${port}:${addresses.map((a) => (a.includes(':') ? `[${a}]` : a)).join(',')}`] : [];
  return { url: raw, resolve, ...(credentials ? { credentials } : {}) };
}

/**
 * The environment git runs in for a job: no prompt, no credential helper, no redirects, the host
 * pinned to the checked addresses. Credentials go in an Authorization header set through the
 * environment (GIT_CONFIG_*), so they are not in any process's arguments, any config file or the
 * URL git prints.
 */
function gitEnv(cwd: string, target?: GitTarget): NodeJS.ProcessEnv {
  const config: [string, string][] = [
    ['credential.helper', ''],
    ['core.askPass', ''],
    ['protocol.allow', 'never'],
    ['protocol.https.allow', 'always'],
    ['protocol.http.allow', 'always'],
    // file: only for a file: remote (allowed in tests and local setups): nothing else reads local paths.
    ['protocol.file.allow', target?.url.startsWith('file:') ? 'always' : 'never'],
    ['http.followRedirects', 'false'],
    ['user.name', 'Quire'],
    ['user.email', 'git-sync@quire.invalid'],
    ['commit.gpgSign', 'false'],
    ['core.hooksPath', '/dev/null'],
  ];
  for (const r of target?.resolve ?? []) config.push(['http.curloptResolve', r]);
  if (target?.credentials) {
    const { username, password } = target.credentials;
    config.push(['http.extraHeader', `Authorization: Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`]);
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: cwd,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_COUNT: String(config.length),
    LC_ALL: 'C',
  };
  config.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

/** What git prints on its standard output at most: more is a failure, not memory. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Starts git in `cwd` with the job's settings (gitEnv), its input left open for the caller to
 * write (`stdin`); `done` gives its output once it exits (unless `output` takes it as it comes),
 * or fails with git's own words. It is killed at the deadline, or by `stop()`.
 */
export function startGit(
  cwd: string,
  args: string[],
  opts: { target?: GitTarget; deadline: number; output?: (chunk: Buffer) => void },
): { stdin: Writable; done: Promise<string>; stop(): void } {
  const child = spawn('git', args, { cwd, env: gitEnv(cwd, opts.target) });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let outBytes = 0;
  let failure: GitError | undefined;
  const stop = (e: GitError) => {
    failure ??= e;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => stop(new GitError(`git ${args[0]} did not finish in time`)), Math.max(1, opts.deadline - Date.now()));
  child.stdout.on('data', (chunk: Buffer) => {
    if (opts.output) return opts.output(chunk);
    outBytes += chunk.length;
    if (outBytes > MAX_OUTPUT_BYTES) stop(new GitError(`git ${args[0]} printed more than ${MAX_OUTPUT_BYTES} bytes`));
    else out.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  // A write to a process that has gone (EPIPE) is its exit's failure, not the service's.
  child.stdin.on('error', () => undefined);
  const done = new Promise<string>((resolve, reject) => {
    child.on('error', (e) => stop(new GitError(`git ${args[0]} failed: ${e.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else if (code !== 0) {
        const stderr = Buffer.concat(err).toString('utf8');
        reject(new GitError(reasonOf(stderr) || `git ${args[0]} failed`, TRANSIENT.test(stderr)));
      } else resolve(Buffer.concat(out).toString('utf8'));
    });
  });
  return { stdin: child.stdin, done, stop: () => child.exitCode === null && stop(new GitError(`git ${args[0]} was stopped`)) };
}

/** Runs git in `cwd` with the job's settings (see startGit), `input` on its standard input; its output. */
export function git(cwd: string, args: string[], opts: { target?: GitTarget; deadline: number; input?: string | Buffer }): Promise<string> {
  const { stdin, done } = startGit(cwd, args, opts);
  stdin.end(opts.input);
  return done;
}

// git's words when the host answered 401 to the credentials sent (or to none): it would then prompt.
const REFUSED = /could not read (username|password)|authentication failed/i;

/** What went wrong, for the job's reason: refused credentials said plainly, then git's own words. */
function reasonOf(stderr: string): string {
  const words = summarize(stderr);
  return REFUSED.test(stderr) ? `the Git host refused the credentials (HTTP 401): ${words}` : words;
}

// git's own words, shortened: the last meaningful lines ("fatal: ..."), without hints.
function summarize(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('hint:'));
  const fatal = lines.filter((l) => /^(fatal|error|remote|!)/.test(l));
  return (fatal.length > 0 ? fatal : lines).slice(-3).join('; ').slice(0, 500);
}
