import { describe, expect, it } from 'vitest';
import { mayBeUnchanged, remoteCommit, type PastImport } from './reimport.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const T = 'c'.repeat(40);

describe('remoteCommit', () => {
  it("reads the ref's commit, an annotated tag's peeled one, nothing for a missing ref", () => {
    expect(remoteCommit(`${A}\trefs/heads/main\n`, 'refs/heads/main')).toBe(A);
    expect(remoteCommit(`${T}\trefs/tags/v1\n${B}\trefs/tags/v1^{}\n`, 'refs/tags/v1')).toBe(B);
    expect(remoteCommit(`${A}\trefs/heads/main-2\n`, 'refs/heads/main')).toBeUndefined();
    expect(remoteCommit('', 'refs/heads/main')).toBeUndefined();
  });
});

describe('mayBeUnchanged', () => {
  const source = { url: 'https://git.example.com/docs.git', ref: 'refs/heads/main', repoTreeUrl: null, repoCommitUrl: null, repoProjectDirectory: 'docs' };
  const past: PastImport = { ...source, commitOid: A, revisionId: 'rev1' };
  const job = { ...source, force: false };

  it('takes an import from the same source that recorded its revision and commit', () => {
    expect(mayBeUnchanged(job, past)).toBe(true);
    // An option given as '' or left out is the same option.
    expect(mayBeUnchanged({ ...job, repoTreeUrl: '' }, past)).toBe(true);
  });

  it('refuses when the source or an option differs, nothing was imported or recorded, or the import is forced', () => {
    expect(mayBeUnchanged(job, undefined)).toBe(false);
    expect(mayBeUnchanged(job, { ...past, commitOid: null })).toBe(false);
    expect(mayBeUnchanged(job, { ...past, revisionId: null })).toBe(false);
    expect(mayBeUnchanged({ ...job, force: true }, past)).toBe(false);
    for (const change of [
      { url: 'https://git.example.com/other.git' },
      { ref: 'refs/heads/next' },
      { repoProjectDirectory: '' },
      { repoTreeUrl: 'https://x/tree' },
      { repoCommitUrl: 'https://x/commit' },
    ]) {
      expect(mayBeUnchanged({ ...job, ...change }, past), JSON.stringify(change)).toBe(false);
    }
  });
});
