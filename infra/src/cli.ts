import { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { adminCommands } from '@quire/orgs/cli';
import { backupCommands, sourcesFromEnv } from './backup.ts';
import { initCommand } from './init.ts';
import { migrateCommand } from './migrate.ts';
import { secretsCommands } from './reseal.ts';

// `pnpm quire <command>`: every operator command on one parser (`quire --help`, `quire <command>
// --help`). Each reads the databases as backup does: `<SERVICE>_DATABASE_URL`, else
// `quire_<service>` on `QUIRE_PG_URL`.
const program = new Command('quire').description("Quire administration: a deployment's secrets, users, organizations, members, tokens, backups, sealed values");
initCommand(program, fileURLToPath(new URL('..', import.meta.url)));
migrateCommand(program);
adminCommands(program, () => sourcesFromEnv().databases.orgs!);
backupCommands(program);
secretsCommands(program);
try {
  await program.parseAsync();
} catch (err) {
  process.stderr.write(`quire: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
