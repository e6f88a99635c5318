import { createHmac } from 'node:crypto';
import { GIT_SYNC } from '@quire/proto/limits';
import { describe, expect, it } from 'vitest';
import { readDelivery, readPushes, verifyDelivery } from './webhook.ts';

const SECRET = 'a'.repeat(64);
const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main', after: 'b'.repeat(40) }));
const hmac = (secret: string, data: Buffer = body) => createHmac('sha256', secret).update(data).digest('hex');

describe('webhook deliveries', () => {
  it('tells each host by its headers, Gitea and Forgejo before the GitHub headers they also send', () => {
    expect(readDelivery({ 'x-github-event': 'push', 'x-github-delivery': 'd1', 'x-hub-signature-256': `sha256=${hmac(SECRET)}` })).toEqual({
      provider: 'github',
      deliveryId: 'd1',
      event: 'push',
      isPush: true,
      proof: hmac(SECRET),
    });
    const gitea = readDelivery({ 'x-github-event': 'push', 'x-github-delivery': 'd2', 'x-gitea-event': 'push', 'x-gitea-delivery': 'd2', 'x-gitea-signature': hmac(SECRET) });
    expect(gitea).toMatchObject({ provider: 'gitea', isPush: true, proof: hmac(SECRET) });
    expect(readDelivery({ 'x-forgejo-event': 'push', 'x-forgejo-delivery': 'd3', 'x-forgejo-signature': 'x', 'x-gitea-event': 'push' })).toMatchObject({ provider: 'forgejo' });
    expect(readDelivery({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': 'u', 'x-gitlab-token': SECRET })).toMatchObject({
      provider: 'gitlab',
      isPush: true,
      proof: SECRET,
    });
    expect(readDelivery({ 'x-event-key': 'repo:push', 'x-request-uuid': 'r', 'x-hub-signature': `sha256=${hmac(SECRET)}` })).toMatchObject({ provider: 'bitbucket', isPush: true });
    expect(readDelivery({ 'x-github-event': 'ping', 'x-github-delivery': 'd' })).toMatchObject({ isPush: false, proof: '' });
  });

  it('refuses deliveries it cannot take, naming what is wrong', () => {
    expect(() => readDelivery({})).toThrow(/no event header/);
    expect(() => readDelivery({ 'x-github-event': 'push' })).toThrow(/github: the delivery id header is missing/);
    expect(() => readDelivery({ 'x-github-event': 'push', 'x-github-delivery': 'd'.repeat(GIT_SYNC.webhookHeader.max + 1) })).toThrow(/x-github-delivery: at most/);
  });

  it('verifies HMAC signatures over the exact bytes, and GitLab tokens', () => {
    const github = readDelivery({ 'x-github-event': 'push', 'x-github-delivery': 'd', 'x-hub-signature-256': `sha256=${hmac(SECRET)}` });
    expect(verifyDelivery(github, body, SECRET)).toBe(true);
    expect(verifyDelivery(github, Buffer.concat([body, Buffer.from(' ')]), SECRET)).toBe(false);
    expect(verifyDelivery(github, body, 'b'.repeat(64))).toBe(false);
    // Only SHA-256: a SHA-1 `sha1=` signature, or one cut short, is no proof.
    expect(verifyDelivery({ ...github, proof: hmac(SECRET).slice(0, 40) }, body, SECRET)).toBe(false);
    expect(readDelivery({ 'x-github-event': 'push', 'x-github-delivery': 'd', 'x-hub-signature-256': `sha1=${hmac(SECRET).slice(0, 40)}` }).proof).toBe('');
    const gitlab = readDelivery({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': 'u', 'x-gitlab-token': SECRET });
    expect(verifyDelivery(gitlab, body, SECRET)).toBe(true);
    expect(verifyDelivery({ ...gitlab, proof: SECRET.slice(1) }, body, SECRET)).toBe(false);
    expect(verifyDelivery({ ...gitlab, proof: '' }, body, SECRET)).toBe(false);
  });

  it('reads the ref and new commit of a push; a deleted branch has none', () => {
    expect(readPushes('github', body)).toEqual([{ ref: 'refs/heads/main', after: 'b'.repeat(40) }]);
    expect(readPushes('gitlab', Buffer.from(JSON.stringify({ ref: 'refs/heads/main', after: '0'.repeat(40) })))).toEqual([{ ref: 'refs/heads/main', after: undefined }]);
    const bitbucket = {
      push: {
        changes: [
          { new: { type: 'branch', name: 'main', target: { hash: 'c'.repeat(40) } }, old: { type: 'branch', name: 'main' } },
          { new: null, old: { type: 'branch', name: 'gone' } },
          { new: { type: 'tag', name: 'v1', target: { hash: 'd'.repeat(40) } } },
        ],
      },
    };
    expect(readPushes('bitbucket', Buffer.from(JSON.stringify(bitbucket)))).toEqual([
      { ref: 'refs/heads/main', after: 'c'.repeat(40) },
      { ref: 'refs/heads/gone', after: undefined },
      { ref: 'refs/tags/v1', after: 'd'.repeat(40) },
    ]);
    expect(() => readPushes('github', Buffer.from('{'))).toThrow(/body: must be the JSON of a push event/);
    expect(() => readPushes('github', Buffer.from('{"after":"x"}'))).toThrow(/names its ref/);
    expect(() => readPushes('bitbucket', Buffer.from('{}'))).toThrow(/lists its changes/);
  });
});
