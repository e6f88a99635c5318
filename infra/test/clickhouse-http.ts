import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drainPending, Session } from 'chdb';

/**
 * ClickHouse's HTTP interface, as far as `quire backup` and `restore` use it (`?query=`, a body of
 * data to insert), in front of the embedded engine over `path`: their statements run on a real
 * ClickHouse. chdb reads inserted data from a file (`FROM INFILE`), so a body is written to one.
 * One database only, `default`.
 */
export async function clickhouseOverChdb(path: string): Promise<{ url: string; close(): Promise<void> }> {
  const session = new Session(path);
  const bodies = await mkdtemp(join(tmpdir(), 'quire-ch-body-'));
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let sql = new URL(req.url!, 'http://clickhouse').searchParams.get('query') ?? '';
    try {
      if (body.length > 0) {
        const file = join(bodies, `${n++}`);
        await writeFile(file, body);
        sql = sql.replace(/^INSERT INTO (\S+)/i, `INSERT INTO $1 FROM INFILE '${file}'`);
      }
      res.end((await session.queryAsync(sql)).bytes());
    } catch (err) {
      res.writeHead(500).end((err as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      session.close();
      await drainPending();
      await rm(bodies, { recursive: true, force: true });
    },
  };
}
