import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `pnpm quire <args>` as an operator does, with `stdin` as its input and `env` over this process's; answers its exit code and output. */
export function quire(args: string[], stdin?: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('pnpm', ['--silent', 'quire', ...args], { cwd: root, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin ?? '');
  });
}
