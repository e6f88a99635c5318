import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The Git Sync benchmarks' baseline: `git clone` of the repository an import reads, timed alone.

const run = promisify(execFile);

/** Milliseconds of a quiet `git clone` of `url` into a folder removed afterwards. */
export async function timedClone(url: string): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-clone-'));
  try {
    const t0 = performance.now();
    await run('git', ['clone', '--quiet', url, dir], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    return performance.now() - t0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
