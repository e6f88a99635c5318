import { describe, expect, it } from 'vitest';
import type { GitJob } from '../types.ts';
import { branchRef, jobOver, jobSummary, repositoryUrl } from './gitsync.ts';

describe('repositoryUrl', () => {
  it('puts a token into the basic-auth part of an https URL', () => {
    expect(repositoryUrl('https://git.example.com/acme/docs.git', 'bob', 's3cret/:@')).toBe('https://bob:s3cret%2F%3A%40@git.example.com/acme/docs.git');
    expect(repositoryUrl(' https://git.example.com/docs.git ', '', 'tok')).toBe('https://git:tok@git.example.com/docs.git');
  });
  it('leaves a URL without a token alone', () => {
    expect(repositoryUrl('https://git.example.com/docs.git', 'bob', '')).toBe('https://git.example.com/docs.git');
  });
  it('refuses what is not a URL, credentials in the URL and credentials for other schemes, naming the field', () => {
    expect(() => repositoryUrl('acme/docs', '', '')).toThrow(/^Repository URL: not a URL/);
    expect(() => repositoryUrl('https://bob:pw@git.example.com/docs.git', '', '')).toThrow(/own fields/);
    expect(() => repositoryUrl('ssh://git.example.com/docs.git', 'bob', 'tok')).toThrow(/http\(s\)/);
  });
});

describe('branchRef', () => {
  it('makes a branch a ref and keeps a ref', () => {
    expect(branchRef('main')).toBe('refs/heads/main');
    expect(branchRef('refs/tags/v1')).toBe('refs/tags/v1');
    expect(() => branchRef('  ')).toThrow('Branch: required');
  });
});

describe('jobs', () => {
  const job = (j: Partial<GitJob>): GitJob => ({ id: 'j', direction: 'import', state: 'queued', createdAt: '2026-11-24T00:00:00Z', filesDone: 0, filesTotal: 0, ...j });
  it('says how far a job is, and why it failed', () => {
    expect(jobSummary(job({}))).toBe('Import queued');
    expect(jobSummary(job({ state: 'running', filesDone: 0, filesTotal: 0 }))).toBe('Import running');
    expect(jobSummary(job({ state: 'running', filesDone: 3, filesTotal: 7 }))).toBe('Import running (3 of 7 files)');
    expect(jobSummary(job({ direction: 'export', state: 'done', filesDone: 7, filesTotal: 7, commit: '0123456789abcdef' }))).toBe('Export done (7 of 7 files), commit 0123456789');
    expect(jobSummary(job({ state: 'failed', error: 'Authentication failed' }))).toBe('Import failed: Authentication failed');
  });
  it('knows when a job is over', () => {
    expect([undefined, job({}), job({ state: 'running' }), job({ state: 'done' }), job({ state: 'failed' })].map(jobOver)).toEqual([false, false, false, true, true]);
  });
});
