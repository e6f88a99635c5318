import { describe, expect, it } from 'vitest';
import { ANSWER_ROOM, DEFAULT_EXPORT_LIMITS, exportProblem, exportReuseKey } from './exports.ts';

const LIMITS = { maxPages: 10, maxPdfPages: 3, maxFileBytes: 2 * 1024 * 1024 };

describe('the bounds of an export', () => {
  it('takes content within them', () => {
    expect(exportProblem('markdown', { pages: 10, fileBytes: LIMITS.maxFileBytes }, LIMITS)).toBeUndefined();
    expect(exportProblem('pdf', { pages: 3, fileBytes: 0 }, LIMITS)).toBeUndefined();
  });

  it('names the pages bound of the format, PDFs having their own', () => {
    expect(exportProblem('pdf', { pages: 4, fileBytes: 0 }, LIMITS)).toBe('the content has 4 pages, more than the 3 of a pdf export');
    expect(exportProblem('html', { pages: 4, fileBytes: 0 }, LIMITS)).toBeUndefined();
    expect(exportProblem('html', { pages: 11, fileBytes: 0 }, LIMITS)).toBe('the content has 11 pages, more than the 10 of a html export');
  });

  it("names the files' bytes bound", () => {
    expect(exportProblem('markdown', { pages: 1, fileBytes: LIMITS.maxFileBytes + 1 }, LIMITS)).toBe("the content's files are 2097153 bytes, more than the 2097152 of an export");
  });

  it('by default, lets the files fill one answer and no more', () => {
    expect(DEFAULT_EXPORT_LIMITS.maxFileBytes).toBe(ANSWER_ROOM);
    expect(exportProblem('markdown', { pages: 1, fileBytes: ANSWER_ROOM + 1 }, DEFAULT_EXPORT_LIMITS)).toMatch(new RegExp(`more than the ${ANSWER_ROOM} of an export`));
  });
});

describe("an export job's reuse key", () => {
  const job = { spaceId: 's1', changeRequestId: '', revision: 'r1', format: 'pdf', userId: 'u1' };
  it('is the same for the same content revision, format and user, and differs when any of them does', () => {
    expect(exportReuseKey({ ...job })).toBe(exportReuseKey(job));
    for (const change of [{ revision: 'r2' }, { format: 'html' }, { userId: 'u2' }, { changeRequestId: 'cr1' }, { spaceId: 's2' }])
      expect(exportReuseKey({ ...job, ...change })).not.toBe(exportReuseKey(job));
  });
});
