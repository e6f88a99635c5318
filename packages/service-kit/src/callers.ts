import { PermissionDeniedError } from './errors.js';

/**
 * Which service may call which, and for whom: the one table every server checks a caller's
 * assertion against. `users` says what the caller may say about the user:
 * - `originate`: it names a user it authenticated itself (the gateway, from an access token;
 *   git-sync, the user its job recorded when it accepted the job);
 * - `delegate`: it passes on the user of the call it is serving, behind an originator;
 * - `none`: it calls only as itself (the reader serves published sites to anonymous visitors).
 */
export const CALLERS = {
  gateway: { calls: ['orgs', 'content', 'review', 'sites', 'integrations', 'git-sync', 'insights'], users: 'originate' },
  orgs: { calls: [], users: 'none' },
  // Review and git-sync: as itself, for the copies of what a Space shows when one is missing.
  content: { calls: ['orgs', 'review', 'git-sync'], users: 'delegate' },
  review: { calls: ['orgs', 'content'], users: 'delegate' },
  sites: { calls: ['orgs', 'content'], users: 'delegate' },
  integrations: { calls: ['orgs'], users: 'delegate' },
  insights: { calls: ['orgs'], users: 'delegate' },
  // Orgs: a merger's name and email, the author of the commit a merge exports.
  'git-sync': { calls: ['content', 'orgs'], users: 'originate' },
  reader: { calls: ['orgs', 'content', 'sites', 'insights'], users: 'none' },
  // The collaboration server: the member it authenticated by their session or token loads and saves pages.
  collab: { calls: ['orgs', 'content', 'review'], users: 'originate' },
} as const satisfies Record<string, { calls: readonly string[]; users: 'originate' | 'delegate' | 'none' }>;

export type ServiceName = keyof typeof CALLERS;
export const SERVICE_IDENTITIES = Object.keys(CALLERS) as ServiceName[];

export const isServiceName = (name: unknown): name is ServiceName => typeof name === 'string' && Object.hasOwn(CALLERS, name);

/** Who a verified assertion says calls: the user (if any) and the services it passed through, origin first. */
export interface Principal {
  userId?: string;
  /** The services the call passed through, the original caller first and the calling service last. */
  chain: readonly ServiceName[];
}

/** Throws PERMISSION_DENIED unless the table lets every hop of this chain call the next, the last `audience`, for this user. */
export function authorizeCaller(principal: Principal, audience: ServiceName): void {
  // Every hop, not only the last: a service cannot claim to serve a caller that may not call it
  // (the gateway saying it acts for the reader, to get the reader's read access).
  [...principal.chain, audience].forEach((callee, i, hops) => {
    const caller = hops[i - 1];
    if (caller !== undefined && !(CALLERS[caller].calls as readonly string[]).includes(callee)) {
      throw new PermissionDeniedError(`The ${caller} service may not call the ${callee} service`);
    }
  });
  if (principal.userId === undefined) return;
  principal.chain.forEach((service, i) => {
    const users = CALLERS[service].users;
    if (users === 'none' || (i === 0 && users !== 'originate')) {
      throw new PermissionDeniedError(`The ${service} service may not act for a user${i === 0 ? ' as the original caller' : ''}`);
    }
  });
}
