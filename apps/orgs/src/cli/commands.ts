import { Command, Option } from 'commander';
import { AUTH } from '@quire/proto/limits';
import { DomainError } from '@quire/service-kit';
import { API_ROLES, roleFromApi, type ApiRole } from '@quire/policy';
import { addMember, createOrganization, createToken, createUser, setPassword } from '../domain/admin.ts';
import { openStore, type Store } from '../store/index.ts';

// The operator commands on the orgs database (`quire user|org|member|token`): infra's `quire`
// CLI puts them on its one parser, beside backup and restore, and names the database.

/** Adds the orgs administration commands to `program`, each run on the database `databaseUrl()` names. */
export function adminCommands(program: Command, databaseUrl: () => string): void {
  function run<T>(action: (store: Store, opts: T) => Promise<{ json: unknown; text: string }>) {
    return async (opts: T & { json?: boolean }) => {
      const { store, close } = openStore(databaseUrl(), 2);
      try {
        const out = await action(store, opts);
        process.stdout.write((opts.json ? JSON.stringify(out.json, null, 2) : out.text) + '\n');
      } catch (err) {
        process.stderr.write(`quire: ${err instanceof DomainError ? err.message : String(err)}\n`);
        process.exitCode = 1;
      } finally {
        await close();
      }
    };
  }

  const json = new Option('--json', 'print the created object as JSON');

  const user = program.command('user').description('users');
  // A password on the command line lands in the shell's history and the process list: `-` reads
  // it from the standard input instead (`echo "$PW" | pnpm quire user set-password --email E --password -`).
  const PASSWORD_HELP = `a password to sign in with (${AUTH.password.min} to ${AUTH.password.max} characters), or - to read it from stdin`;

  async function passwordFrom(value: string): Promise<string> {
    if (value !== '-') return value;
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.replace(/\r?\n$/, '');
  }

  user
    .command('create')
    .requiredOption('--email <email>')
    .requiredOption('--name <name>', 'display name')
    .option('--password <password>', PASSWORD_HELP)
    .addOption(json)
    .action(
      run<{ email: string; name: string; password?: string }>(async (store, o) => {
        const u = await createUser(store, o.email, o.name, o.password === undefined ? undefined : await passwordFrom(o.password));
        const { passwordHash: _secret, ...shown } = u;
        return { json: shown, text: u.id };
      }),
    );

  user
    .command('set-password')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>', PASSWORD_HELP)
    .action(
      run<{ email: string; password: string }>(async (store, o) => {
        const u = await setPassword(store, o.email, await passwordFrom(o.password));
        return { json: { id: u.id, email: u.email }, text: `password set for ${u.email}` };
      }),
    );

  program
    .command('org')
    .description('organizations')
    .command('create')
    .requiredOption('--title <title>')
    .requiredOption('--owner <email>', 'email of the user who becomes its admin')
    .addOption(json)
    .action(
      run<{ title: string; owner: string }>(async (store, o) => {
        const org = await createOrganization(store, o.title, o.owner);
        return { json: org, text: org.id };
      }),
    );

  program
    .command('member')
    .description('organization members')
    .command('add')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--email <email>')
    .addOption(new Option('--role <role>', 'role in the organization').choices([...API_ROLES, 'guest']).makeOptionMandatory())
    .addOption(json)
    .action(
      run<{ org: string; email: string; role: ApiRole | 'guest' }>(async (store, o) => {
        const m = await addMember(store, o.org, o.email, roleFromApi(o.role === 'guest' ? null : o.role));
        return { json: m, text: `${m.user.email} is ${m.role ?? 'guest'} of ${m.organizationId}` };
      }),
    );

  program
    .command('token')
    .description('API tokens')
    .command('create')
    .requiredOption('--email <email>', 'the user the token acts as')
    .addOption(json)
    .action(
      run<{ email: string }>(async (store, o) => {
        const { token, user: u } = await createToken(store, o.email);
        return { json: { token, user: { id: u.id, email: u.email } }, text: token };
      }),
    );
}
