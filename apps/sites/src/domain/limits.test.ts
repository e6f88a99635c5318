import { describe, expect, it } from 'vitest';
import { COMMON, SITE } from '@quire/proto/limits';
import { overBound, refusal } from '@quire/service-kit/testing';
import {
  checkBasename,
  checkCondition,
  checkDescription,
  checkGroupTitle,
  checkHostname,
  checkIcon,
  checkPath,
  checkProxy,
  checkSectionTitle,
  checkShareLinkName,
  checkSiteTitle,
} from './fields.ts';

// The bounds of @quire/proto/limits this service owns, refused one over with the field named (the
// gateway's limits.test.ts finds the same numbers in its OpenAPI document).

describe('sites refuses what is over the bounds of @quire/proto/limits', () => {
  it.each([
    ['SITE.title', 'title', () => checkSiteTitle(overBound(SITE.title))],
    ['SITE.sectionTitle', 'title', () => checkSectionTitle(overBound(SITE.sectionTitle))],
    ['SITE.groupTitle', 'title', () => checkGroupTitle(overBound(SITE.groupTitle))],
    ['SITE.basename', 'basename', () => checkBasename(overBound(SITE.basename))],
    ['SITE.path', 'path', () => checkPath(overBound(SITE.path))],
    ['SITE.description', 'description', () => checkDescription(overBound(SITE.description))],
    ['SITE.condition', 'condition', () => checkCondition(overBound(SITE.condition))],
    ['SITE.shareLinkName', 'name', () => checkShareLinkName(overBound(SITE.shareLinkName))],
    ['SITE.hostname', 'hostname', () => checkHostname(overBound(SITE.hostname))],
    ['SITE.proxy', 'proxy', () => checkProxy(overBound(SITE.proxy))],
    ['COMMON.icon', 'icon', () => checkIcon(overBound(COMMON.icon))],
  ])('%s', (_bound, field, check) => {
    expect(refusal(check)).toMatch(new RegExp(`^${field}: must be .*characters`));
  });

  it('takes what is at the bounds', () => {
    expect(checkSiteTitle('x'.repeat(SITE.title.max))).toHaveLength(SITE.title.max);
    expect(checkPath('x'.repeat(SITE.path.max))).toHaveLength(SITE.path.max);
  });
});
