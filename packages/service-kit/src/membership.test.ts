import { describe, expect, it } from 'vitest';
import type { GetMembershipRequest, GetMembershipResponse } from '@quire/proto/orgs';
import type { Caller } from './context.ts';
import { Role } from '@quire/proto/common';
import { cachedMemberships } from './membership.ts';

function fakeOrgs(answer: (req: GetMembershipRequest) => Promise<GetMembershipResponse>) {
  const calls: GetMembershipRequest[] = [];
  return { calls, getMembership: (req: GetMembershipRequest, _caller: Caller) => (calls.push(req), answer(req)) };
}

const caller: Caller = { userId: 'u1', requestId: 'r' };
const member = (role: Role): GetMembershipResponse => ({ role, teamIds: [] }) as unknown as GetMembershipResponse;

describe('cachedMemberships', () => {
  it('asks once per member and period, sharing concurrent lookups', async () => {
    let clock = 0;
    const orgs = fakeOrgs(async () => member(Role.ROLE_EDIT));
    const cached = cachedMemberships(orgs, 1000, () => clock);
    const req = { organizationId: 'o1', userId: 'u1' };
    await Promise.all([cached.getMembership(req, caller), cached.getMembership(req, caller)]);
    await cached.getMembership({ organizationId: 'o2', userId: 'u1' }, caller);
    expect(orgs.calls).toHaveLength(2);
    clock = 499;
    expect((await cached.getMembership(req, caller)).role).toBe(Role.ROLE_EDIT);
    expect(orgs.calls).toHaveLength(2);
    clock = 1000;
    await cached.getMembership(req, caller);
    expect(orgs.calls).toHaveLength(3);
  });

  it("asks anew past half an answer's life while callers keep the answer in hand, and uses none past its life", async () => {
    let clock = 0;
    const roles = [Role.ROLE_EDIT, Role.ROLE_READ];
    let failing = false;
    const orgs = fakeOrgs(async () => {
      if (failing) throw new Error('unavailable');
      return member(roles.shift() ?? Role.ROLE_ADMIN);
    });
    const cached = cachedMemberships(orgs, 1000, () => clock);
    const req = { organizationId: 'o1', userId: 'u1' };
    expect((await cached.getMembership(req, caller)).role).toBe(Role.ROLE_EDIT);
    clock = 499;
    await cached.getMembership(req, caller);
    expect(orgs.calls).toHaveLength(1);
    // Half its life gone: this call gets the answer in hand and one renewal starts.
    clock = 500;
    const [inHand] = await Promise.all([cached.getMembership(req, caller), cached.getMembership(req, caller)]);
    expect(inHand.role).toBe(Role.ROLE_EDIT);
    expect(orgs.calls).toHaveLength(2);
    clock = 600;
    expect((await cached.getMembership(req, caller)).role).toBe(Role.ROLE_READ);
    // The renewal asked at 500 lives until 1500; its own renewal, from 1000, fails.
    failing = true;
    clock = 1000;
    expect((await cached.getMembership(req, caller)).role).toBe(Role.ROLE_READ);
    expect(orgs.calls).toHaveLength(3);
    clock = 1499;
    expect((await cached.getMembership(req, caller)).role).toBe(Role.ROLE_READ);
    expect(orgs.calls).toHaveLength(3);
    // Run out: the next call waits for orgs, and sees its failure.
    clock = 1500;
    await expect(cached.getMembership(req, caller)).rejects.toThrow('unavailable');
    expect(orgs.calls).toHaveLength(4);
  });

  it('does not remember failures, and is off at 0', async () => {
    let fail = true;
    const orgs = fakeOrgs(async () => {
      if (fail) throw new Error('unavailable');
      return member(Role.ROLE_READ);
    });
    const cached = cachedMemberships(orgs, 1000);
    const req = { organizationId: 'o1', userId: 'u1' };
    await expect(cached.getMembership(req, caller)).rejects.toThrow('unavailable');
    fail = false;
    expect((await cached.getMembership(req, caller)).role).toBe(Role.ROLE_READ);
    expect(cachedMemberships(orgs, 0)).toBe(orgs);
  });
});
