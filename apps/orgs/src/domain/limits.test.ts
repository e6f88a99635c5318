import { describe, expect, it } from 'vitest';
import { AUTH, COMMON, ORGANIZATION, SSO, TRANSLATION } from '@quire/proto/limits';
import { overBound, refusal } from '@quire/service-kit/testing';
import { checkTokenLabel } from './credentials.ts';
import { checkNewPassword } from './passwords.ts';
import { checkCertificate, checkEntityId, checkLabel } from './saml.ts';
import { checkClientId, checkClientSecret, checkOidcLabel } from './sso.ts';
import { checkLanguages, checkTitle } from './translations.ts';
import { checkEmail, checkHostname, normalizeEmailDomains } from './validate.ts';

// The bounds of @quire/proto/limits this service owns, refused one over with the field named (the
// gateway's limits.test.ts finds the same numbers in its OpenAPI document).
const many = (n: number, item: (i: number) => string) => Array.from({ length: n }, (_, i) => item(i));

describe('orgs refuses what is over the bounds of @quire/proto/limits', () => {
  it.each([
    ['AUTH.password', 'newPassword', () => checkNewPassword('newPassword', overBound(AUTH.password))],
    ['AUTH.tokenLabel', 'label', () => checkTokenLabel(overBound(AUTH.tokenLabel))],
    ['COMMON.email', 'email', () => checkEmail(`${'a'.repeat(COMMON.email.max + 1 - '@b.co'.length)}@b.co`)],
    ['ORGANIZATION.hostname', 'hostname', () => checkHostname(overBound(ORGANIZATION.hostname))],
    ['ORGANIZATION.emailDomains', 'emailDomains', () => normalizeEmailDomains(many(ORGANIZATION.emailDomains.max + 1, (i) => `d${i}.example.com`))],
    ['SSO.label (SAML)', 'label', () => checkLabel(overBound(SSO.label))],
    ['SSO.label (OIDC)', 'label', () => checkOidcLabel(overBound(SSO.label))],
    ['SSO.entityID', 'entityID', () => checkEntityId(overBound(SSO.entityID))],
    ['SSO.certificate', 'certificate', () => checkCertificate(overBound(SSO.certificate))],
    ['SSO.clientId', 'clientId', () => checkClientId(overBound(SSO.clientId))],
    ['SSO.clientSecret', 'clientSecret', () => checkClientSecret(overBound(SSO.clientSecret))],
    ['TRANSLATION.title', 'title', () => checkTitle(overBound(TRANSLATION.title))],
    ['TRANSLATION.languages', 'languages', () => checkLanguages(many(TRANSLATION.languages.max + 1, () => 'en'))],
    ['TRANSLATION.language', 'languages[0]', () => checkLanguages([overBound(TRANSLATION.language)])],
  ])('%s', (_bound, field, check) => {
    expect(refusal(check)).toMatch(new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: `));
  });

  it('takes what is at the bounds', () => {
    expect(checkTokenLabel('x'.repeat(AUTH.tokenLabel.max))).toHaveLength(AUTH.tokenLabel.max);
    expect(checkTitle('x'.repeat(TRANSLATION.title.max))).toHaveLength(TRANSLATION.title.max);
  });
});
