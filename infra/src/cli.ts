import { backupCli } from './backup.ts';

// `pnpm quire ...`: backup and restore here, every other command is the orgs administration CLI.
try {
  if (!(await backupCli(process.argv.slice(2)))) await import('@quire/orgs/cli');
} catch (err) {
  process.stderr.write(`quire: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
