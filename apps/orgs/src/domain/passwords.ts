import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { AUTH } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';

/**
 * argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 20-40 ms of
 * one core per sign-in here, so brute force of a stolen hash stays costly while a sign-in stays
 * quick; libuv's 4 worker threads bound the memory of concurrent sign-ins to about 80 MiB.
 */
// The library's default algorithm is argon2id (its const enum cannot be named under isolatedModules).
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function checkNewPassword(field: string, password: string): string {
  if (password.length < AUTH.password.min) throw new InvalidArgumentError(`${field}: must have at least ${AUTH.password.min} characters`);
  if (password.length > AUTH.password.max) throw new InvalidArgumentError(`${field}: must have at most ${AUTH.password.max} characters`);
  return password;
}

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

// Checked against when the email is unknown or has no password, so that both answers take the
// time of one verification: the answer's timing does not tell which emails have accounts.
let dummy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash, the same work against a dummy, then false. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  // Over-long input is refused after the same work, not before it (no length oracle either).
  const given = password.length > AUTH.password.max ? password.slice(0, AUTH.password.max) : password;
  if (!stored) {
    await verify(await (dummy ??= hashPassword(randomBytes(16).toString('base64url'))), given).catch(() => false);
    return false;
  }
  return verify(stored, given).catch(() => false);
}
