import type { Command } from 'commander';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DATABASES, sourcesFromEnv } from './backup.ts';

const run = promisify(execFile);
const prismaCli = join(dirname(createRequire(import.meta.url).resolve('prisma/package.json')), 'build/index.js');
// Beside this module: prisma.config.ts from the sources, prisma.config.js in the ops image's bundle.
const config = fileURLToPath(new URL(`./prisma.config.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));

/**
 * `prisma migrate deploy` for each service, in order, on its database: the step every upgrade
 * runs before the services start. Prisma takes an advisory lock, so two at once wait, and a
 * failed migration stops here, naming its service, with the later ones not applied.
 */
export async function migrate(services: readonly string[], databases: Record<string, string>, log: (line: string) => void): Promise<void> {
  for (const service of services) {
    const schema = fileURLToPath(new URL(`../../apps/${service}/prisma/schema.prisma`, import.meta.url));
    const env = { ...process.env, DATABASE_URL: databases[service], QUIRE_MIGRATE_SERVICE: service, QUIRE_PRISMA_SCHEMA: schema };
    try {
      const { stdout } = await run(process.execPath, [prismaCli, 'migrate', 'deploy', '--config', config], { env });
      const applied = stdout.match(/^(No pending migrations|All migrations have been successfully applied|The following migration\(s\) have been applied)/m);
      log(`${service}: ${applied?.[1] ?? 'migrated'}`);
    } catch (err) {
      const output = `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}`.trim();
      throw new Error(`the migrations of ${service} failed; the services after it were not migrated:\n${output || (err as Error).message}`, { cause: err });
    }
  }
}

/** `quire migrate` on the CLI's parser. */
export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description(`apply each service's database migrations (${DATABASES.join(', ')}): run it before the services of a new version start`)
    .argument('[services...]', 'only these services, in this order', [...DATABASES])
    .action(async (services: string[]) => {
      const unknown = services.filter((s) => !(DATABASES as readonly string[]).includes(s));
      if (unknown.length > 0) throw new Error(`unknown service ${unknown.join(', ')} (services with a database: ${DATABASES.join(', ')})`);
      await migrate(services, sourcesFromEnv().databases, (line) => process.stdout.write(line + '\n'));
    });
}
