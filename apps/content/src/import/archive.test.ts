import { describe, expect, it } from 'vitest';
import { lyingBomb, zip } from '../../test/import-files.ts';
import { entryProblem, RATIO_FLOOR, readArchive, type ArchiveLimits } from './archive.ts';

const LIMITS: ArchiveLimits = { maxEntries: 10, maxTotalBytes: 1024 * 1024, maxRatio: 100 };

describe('archive limits, checked before inflating', () => {
  it('names unsafe paths, the total and the ratio', () => {
    const ok = { fileName: 'a/b.md', compressedSize: 10, uncompressedSize: 20 };
    expect(entryProblem(ok, 20, LIMITS)).toBeUndefined();
    for (const fileName of ['../etc/passwd', 'a/../../b', '/abs', 'C:/win', 'a\\..\\b']) expect(entryProblem({ ...ok, fileName }, 20, LIMITS)).toMatch(/unsafe path/);
    expect(entryProblem(ok, LIMITS.maxTotalBytes + 1, LIMITS)).toMatch(/more than 1048576 bytes/);
    expect(entryProblem({ ...ok, compressedSize: 100, uncompressedSize: 100 * 101 + RATIO_FLOOR }, 0, LIMITS)).toMatch(/more than 100 to 1/);
    // Small entries may compress well.
    expect(entryProblem({ ...ok, compressedSize: 1, uncompressedSize: RATIO_FLOOR }, 0, LIMITS)).toBeUndefined();
  });

  it('reads the files of an archive, leaving folders and macOS metadata out', async () => {
    const entries = await readArchive(zip({ 'a/': new Uint8Array(), 'a/b.md': '# B', '__MACOSX/._b.md': 'x', 'c.png': new Uint8Array([1, 2]) }), LIMITS);
    expect(entries.map((e) => [e.path, e.data.toString('hex')])).toEqual([
      ['a/b.md', Buffer.from('# B').toString('hex')],
      ['c.png', '0102'],
    ]);
  });

  // Attacks.
  it('refuses an entry named ../ or absolute, too many entries, too many bytes and a high ratio', async () => {
    await expect(readArchive(zip({ '../evil.md': 'x' }), LIMITS)).rejects.toThrow(/url: the archive is refused: .*(invalid relative path|unsafe path).*\.\.\/evil\.md/);
    await expect(readArchive(zip({ '/etc/evil.md': 'x' }), LIMITS)).rejects.toThrow(/url: the archive is refused: .*(absolute path|unsafe path)/);
    await expect(readArchive(zip(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`${i}.md`, 'x']))), LIMITS)).rejects.toThrow(/11 entries, more than 10 \(the limit\)/);
    await expect(readArchive(zip({ 'big.bin': new Uint8Array(LIMITS.maxTotalBytes + 1).fill(7) }, 0), LIMITS)).rejects.toThrow(/inflates to more than 1048576 bytes/);
    await expect(readArchive(zip({ 'zeros.bin': new Uint8Array(900 * 1024) }), LIMITS)).rejects.toThrow(/compressed more than 100 to 1/);
  });

  it('stops an entry that inflates past the size it declares (a lying bomb) without inflating it all', async () => {
    const bomb = lyingBomb();
    const started = performance.now();
    await expect(readArchive(bomb, { ...LIMITS, maxTotalBytes: 10_000 })).rejects.toThrow(/entry "bomb.md" cannot be read \(too many bytes in the stream/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('says what is wrong with bytes that are no ZIP', async () => {
    await expect(readArchive(Buffer.from('not a zip at all'), LIMITS)).rejects.toThrow(/url: not a readable ZIP archive/);
  });
});
