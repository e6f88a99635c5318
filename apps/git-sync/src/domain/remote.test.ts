import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkProjectDirectory, checkRef, parseRemote, providerOf, repoNameOf } from './remote.ts';
import { openCredentials, sealCredentials } from './sealed.ts';

describe('parseRemote', () => {
  it('splits the credentials off the URL', () => {
    expect(parseRemote('https://bob:s%40cret@github.com/acme/docs.git', false)).toEqual({
      url: 'https://github.com/acme/docs.git',
      credentials: { username: 'bob', password: 's@cret' },
    });
    expect(parseRemote('https://gitlab.com/acme/docs', false)).toEqual({ url: 'https://gitlab.com/acme/docs' });
  });

  it('refuses other schemes, and file: unless allowed', () => {
    expect(() => parseRemote('ssh://git@github.com/a/b', false)).toThrow(/ssh: URLs are not allowed/);
    expect(() => parseRemote('file:///tmp/repo.git', false)).toThrow(/file: URLs are not allowed/);
    expect(parseRemote('file:///tmp/repo.git', true).url).toBe('file:///tmp/repo.git');
    expect(() => parseRemote('not a url', true)).toThrow(/url: must be a repository URL/);
  });
});

describe('checkRef', () => {
  it('takes full branch and tag refs only', () => {
    expect(checkRef('refs/heads/main')).toBe('refs/heads/main');
    expect(checkRef('refs/tags/v1.0')).toBe('refs/tags/v1.0');
    for (const bad of ['main', 'refs/heads/', 'refs/heads/a..b', 'refs/heads/a b', 'refs/heads/x.lock', 'refs/remotes/o/x', '--upload-pack=x']) {
      expect(() => checkRef(bad), bad).toThrow(/ref: must be a full Git ref/);
    }
  });
});

describe('repository names and providers', () => {
  it('names owner/name and guesses well-known hosts', () => {
    expect(repoNameOf('https://github.com/acme/docs.git')).toBe('acme/docs');
    expect(repoNameOf('file:///tmp/x/repo.git')).toBe('x/repo');
    expect(providerOf('https://github.com/acme/docs')).toBe('github');
    expect(providerOf('https://gitlab.example.org/a/b')).toBe('gitlab');
    expect(providerOf('https://git.example.org/a/b')).toBeUndefined();
    expect(providerOf('https://git.example.org/a/b', 'gitlab')).toBe('gitlab');
  });
});

describe('checkProjectDirectory', () => {
  it('normalizes and stays inside the repository', () => {
    expect(checkProjectDirectory('./docs/')).toBe('docs');
    expect(checkProjectDirectory('')).toBe('');
    expect(() => checkProjectDirectory('../etc')).toThrow(/repoProjectDirectory/);
    expect(() => checkProjectDirectory('a/.git/hooks')).toThrow(/repoProjectDirectory/);
  });
});

describe('sealed credentials', () => {
  const key = randomBytes(32);
  it('open with the same key and job only', () => {
    const sealed = sealCredentials({ username: 'u', password: 'p' }, 'job1', key);
    expect(sealed).not.toContain('p"');
    expect(openCredentials(sealed, 'job1', key)).toEqual({ username: 'u', password: 'p' });
    expect(() => openCredentials(sealed, 'job2', key)).toThrow();
    expect(() => openCredentials(sealed, 'job1', randomBytes(32))).toThrow();
  });
});
