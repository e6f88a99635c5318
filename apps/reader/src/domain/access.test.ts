import { describe, expect, it } from 'vitest';
import { refusal } from './access.ts';

const here = 'http://r.test/o/s/page';

describe('refusal', () => {
  it('lets granted visitors in', () => expect(refusal({ access: 'granted', offered: false, here })).toBeNull());

  it('answers 401 without a share key and 403 with a dead one', () => {
    expect(refusal({ access: 'share-key', offered: false, here })).toMatchObject({ kind: 'page', status: 401 });
    expect(refusal({ access: 'share-key', offered: true, here })).toMatchObject({ kind: 'page', status: 403 });
  });

  it('sends visitor-auth visitors to the fallback URL with where they were, else 401/403', () => {
    expect(refusal({ access: 'visitor-token', offered: false, fallbackUrl: 'https://login.test/a?x=1', here })).toEqual({
      kind: 'redirect',
      location: `https://login.test/a?x=1&location=${encodeURIComponent(here)}`,
    });
    expect(refusal({ access: 'visitor-token', offered: false, here })).toMatchObject({ status: 401 });
    expect(refusal({ access: 'visitor-token', offered: true, here })).toMatchObject({ status: 403 });
  });

  it('refuses what it does not know', () => expect(refusal({ access: 'something-new', offered: false, here })).toMatchObject({ status: 403 }));

  it('offers members of the organization their way in on refusal pages, not on redirects', () => {
    expect(refusal({ access: 'share-key', offered: false, here, memberSignIn: 'https://api.test/auth/site-access?x' })).toMatchObject({
      status: 401,
      memberSignIn: 'https://api.test/auth/site-access?x',
    });
    expect(refusal({ access: 'visitor-token', offered: false, fallbackUrl: 'https://login.test/', here, memberSignIn: 'https://api.test/x' })).not.toHaveProperty('memberSignIn');
  });
});
