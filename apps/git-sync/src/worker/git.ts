import { execFile } from 'node:child_process';
import type { Credentials } from '../domain/sealed.ts';

/** A git command that failed: `message` is safe to show (credentials never reach git's arguments). */
export class GitError extends Error {}

export interface GitTarget {
  /** The URL without credentials. */
  url: string;
  credentials?: Credentials;
  /** `host:port:address` pins from the URL check, so git connects where the check looked. */
  resolve: string[];
}

/**
 * Runs git in `cwd` with the job's remote settings: no prompt, no credential helper, no
 * redirects, the host pinned to the checked addresses. Credentials go in an Authorization header
 * set through the environment (GIT_CONFIG_*), so they are not in any process's arguments, any
 * config file or the URL git prints.
 */
export function git(cwd: string, args: string[], opts: { target?: GitTarget; deadline: number; input?: string | Buffer }): Promise<string> {
  const config: [string, string][] = [
    ['credential.helper', ''],
    ['core.askPass', ''],
    ['protocol.allow', 'never'],
    ['protocol.https.allow', 'always'],
    ['protocol.http.allow', 'always'],
    // file: only for a file: remote (allowed in tests and local setups): nothing else reads local paths.
    ['protocol.file.allow', opts.target?.url.startsWith('file:') ? 'always' : 'never'],
    ['http.followRedirects', 'false'],
    ['user.name', 'Quire'],
    ['user.email', 'git-sync@quire.invalid'],
    ['commit.gpgSign', 'false'],
    ['core.hooksPath', '/dev/null'],
  ];
  for (const r of opts.target?.resolve ?? []) config.push(['http.curloptResolve', r]);
  if (opts.target?.credentials) {
    const { username, password } = opts.target.credentials;
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
  const timeout = Math.max(1, opts.deadline - Date.now());
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env, timeout, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if (err.killed || err.signal === 'SIGKILL') return reject(new GitError(`git ${args[0]} did not finish in time`));
      reject(new GitError(summarize(stderr) || `git ${args[0]} failed`));
    });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
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
