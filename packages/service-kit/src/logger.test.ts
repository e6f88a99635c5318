import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { logRedaction, redactUrl } from './logger.js';

describe('log redaction', () => {
  it('replaces the values of credential parameters in a URL, whatever their case or encoding', () => {
    expect(redactUrl('/files/b?name=a.png&exp=1&sig=abc')).toBe('/files/b?name=a.png&exp=1&sig=[redacted]');
    expect(redactUrl('/s/x?jwt_token=e.y.z&ShareKey=k&%73ig=v&q=search')).toBe('/s/x?jwt_token=[redacted]&ShareKey=[redacted]&%73ig=[redacted]&q=search');
    expect(redactUrl('/auth/oidc/p/callback?code=c&state=s')).toBe('/auth/oidc/p/callback?code=[redacted]&state=[redacted]');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    expect(redactUrl('/x?%E0=1&sig')).toBe('/x?%E0=1&sig');
  });

  it('keeps tokens, credential headers and query parameters out of the log', () => {
    const lines: string[] = [];
    const log = pino({ ...logRedaction }, { write: (l: string) => void lines.push(l) });
    log.info({ req: { method: 'GET', url: '/f?sig=s3cret', headers: { authorization: 'Bearer t0ken' } }, token: 'tok', job: { token: 'tok2' } }, 'request');
    const [line] = lines.map((l) => JSON.parse(l));
    expect(line.req.url).toBe('/f?sig=[redacted]');
    expect(lines.join()).not.toMatch(/s3cret|t0ken|tok2|"tok"/);
  });
});
