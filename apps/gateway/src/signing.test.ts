import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { linkSecrets, makeLinkSigner, makeValueSigner } from './signing.ts';

const OLD = 'the-old-link-secret-0123';
const NEW = 'the-new-link-secret-4567';
const BASE = 'https://quire.test';

/** The path, params, exp and sig of a signed link, as a route reads them. */
function parts(url: string) {
  const u = new URL(url);
  const { exp, sig, ...params } = Object.fromEntries(u.searchParams);
  return [u.pathname, params, Number(exp), sig!] as const;
}

describe('signed links during a rotation', () => {
  const oldLink = makeLinkSigner(BASE, { current: OLD }).sign('/files/b1', { name: 'a.png' });

  it('verify a link the previous secret signed while it is configured, and no longer once it is removed', () => {
    expect(makeLinkSigner(BASE, linkSecrets({ QUIRE_LINK_SECRET: NEW, QUIRE_LINK_SECRET_PREVIOUS: `another-old-secret-89,${OLD}` })).verify(...parts(oldLink))).toBe(true);
    expect(makeLinkSigner(BASE, linkSecrets({ QUIRE_LINK_SECRET: NEW })).verify(...parts(oldLink))).toBe(false);
  });

  it('carry the id of the key that signed them, which picks the key: another id fails', () => {
    const signer = makeLinkSigner(BASE, { current: NEW, previous: [OLD] });
    const [path, params, exp, sig] = parts(signer.sign('/files/b1', { name: 'a.png' }));
    expect(sig).toMatch(/^[0-9a-f]{72}$/);
    expect(sig.slice(0, 8)).not.toBe(parts(oldLink)[3].slice(0, 8));
    expect(signer.verify(path, params, exp, sig)).toBe(true);
    // The old key's id before the new key's HMAC: the old key does not make that HMAC.
    expect(signer.verify(path, params, exp, parts(oldLink)[3].slice(0, 8) + sig.slice(8))).toBe(false);
    expect(signer.verify(path, params, exp, 'ffffffff' + sig.slice(8))).toBe(false);
    expect(signer.verify(path, { name: 'b.png' }, exp, sig)).toBe(false);
  });

  it('verify links made before signatures had a key id, under the current secret or a previous one', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const legacy = (secret: string) =>
      createHmac('sha256', secret)
        .update(JSON.stringify(['/files/b1', [['name', 'a.png']], exp]))
        .digest('hex');
    const signer = makeLinkSigner(BASE, { current: NEW, previous: [OLD] });
    expect(signer.verify('/files/b1', { name: 'a.png' }, exp, legacy(NEW))).toBe(true);
    expect(signer.verify('/files/b1', { name: 'a.png' }, exp, legacy(OLD))).toBe(true);
    expect(makeLinkSigner(BASE, { current: NEW }).verify('/files/b1', { name: 'a.png' }, exp, legacy(OLD))).toBe(false);
    expect(signer.verify('/files/b1', { name: 'a.png' }, exp, legacy('another-deployment-secret'))).toBe(false);
  });
});

describe('signed values (the OIDC state) during a rotation', () => {
  it('verify a value the previous secret signed while it is configured', () => {
    const signed = makeValueSigner({ current: OLD }, 'oidc-state').sign({ p: 'x' }, 600);
    expect(makeValueSigner({ current: NEW, previous: [OLD] }, 'oidc-state').verify(signed)).toEqual({ p: 'x' });
    expect(makeValueSigner({ current: NEW }, 'oidc-state').verify(signed)).toBeUndefined();
    // Keys are derived per purpose: the same secrets for another purpose verify nothing.
    expect(makeValueSigner({ current: NEW, previous: [OLD] }, 'other').verify(signed)).toBeUndefined();
  });
});
