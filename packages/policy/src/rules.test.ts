import { describe, expect, it } from 'vitest';
import { allow, RULES, type Action, type Contexts, type Resource } from './index.ts';
import { Role } from './roles.ts';

// Every answer of every table, pinned: one row per action, one column per role, weakest first.
// `x` allows, `.` refuses. The rows that do not depend on the resource's state ignore `context`.
const ask = allow as (role: Role, action: string, resource: Resource, context?: object) => boolean;
const ROLES = [Role.ROLE_UNSPECIFIED, Role.ROLE_GUEST, Role.ROLE_READ, Role.ROLE_COMMENT, Role.ROLE_EDIT, Role.ROLE_REVIEW, Role.ROLE_CREATE, Role.ROLE_ADMIN];

function pins<R extends Resource>(resource: R, grid: Record<Action<R>, string>, ...context: R extends keyof Contexts ? [Contexts[R]] : []) {
  it('answers every action of the table', () => expect(Object.keys(grid).sort()).toEqual(Object.keys(RULES[resource]).sort()));
  for (const [action, row] of Object.entries(grid) as [Action<R>, string][]) {
    it(`${action}: ${row}`, () => {
      const answers = ROLES.map((role) => (ask(role, action, resource, ...context) ? 'x' : '.'));
      expect(answers).toEqual(row.split(/\s+/));
    });
  }
}

describe('organization, by the role in it', () => {
  // prettier-ignore
  pins('organization', {
    //                   none guest read comment edit review create admin
    view:                '.   x     x    x       x    x      x      x',
    listMembers:         '.   .     x    x       x    x      x      x',
    listTeams:           '.   .     x    x       x    x      x      x',
    listIntegrations:    '.   .     x    x       x    x      x      x',
    inheritContent:      '.   .     x    x       x    x      x      x',
    listMemberSpaces:    '.   .     x    x       x    x      x      x',
    createContent:       '.   .     .    .       .    .      x      x',
    viewOpenApiSpecs:    '.   .     x    x       x    x      x      x',
    createOpenApiSpec:   '.   .     .    .       .    .      x      x',
    admin:               '.   .     .    .       .    .      .      x',
    adminContent:        '.   .     .    .       .    .      .      x',
    transferContent:     '.   .     .    .       .    .      .      x',
    manageMembers:       '.   .     .    .       .    .      .      x',
    manageTeams:         '.   .     .    .       .    .      .      x',
    manageInvites:       '.   .     .    .       .    .      .      x',
    publishIntegrations: '.   .     .    .       .    .      .      x',
    viewBilling:         '.   .     .    .       .    .      .      x',
    viewAuditLog:        '.   .     .    .       .    .      .      x',
    ingestConversations: '.   .     .    .       .    .      .      x',
  });
});

describe('team, by the role in its organization', () => {
  describe('for one of its owners', () => {
    // prettier-ignore
    pins('team', {
      //      none guest read comment edit review create admin
      manage: '.   x     x    x       x    x      x      x',
    }, { owner: true });
  });
  describe('for anyone else', () => {
    // prettier-ignore
    pins('team', {
      //      none guest read comment edit review create admin
      manage: '.   .     .    .       .    .      .      x',
    }, { owner: false });
  });
});

describe('collection, by the effective role on it', () => {
  // prettier-ignore
  pins('collection', {
    //                 none guest read comment edit review create admin
    view:              '.   .     x    x       x    x      x      x',
    create:            '.   .     .    .       .    .      x      x',
    admin:             '.   .     .    .       .    .      .      x',
    viewInviteLinks:   '.   .     .    .       .    .      .      x',
    managePermissions: '.   .     .    .       .    .      .      x',
  });
});

describe('space, by the effective role on it', () => {
  describe('live', () => {
    // prettier-ignore
    pins('space', {
      //                 none guest read comment edit review create admin
      view:              '.   .     x    x       x    x      x      x',
      access:            '.   .     x    x       x    x      x      x',
      comment:           '.   .     .    x       x    x      x      x',
      review:            '.   .     .    .       .    x      x      x',
      admin:             '.   .     .    .       .    .      .      x',
      viewInviteLinks:   '.   .     .    .       .    .      .      x',
      managePermissions: '.   .     .    .       .    .      .      x',
      update:            '.   .     .    .       x    x      x      x',
      edit:              '.   .     .    .       x    x      x      x',
      triggerGitSync:    '.   .     .    .       x    x      x      x',
      merge:             '.   .     .    .       .    x      x      x',
    }, { editMode: 'live' });
  });
  describe("locked: no edits, whoever asks, change requests' included", () => {
    // prettier-ignore
    pins('space', {
      //                 none guest read comment edit review create admin
      view:              '.   .     x    x       x    x      x      x',
      access:            '.   .     x    x       x    x      x      x',
      comment:           '.   .     .    x       x    x      x      x',
      review:            '.   .     .    .       .    x      x      x',
      admin:             '.   .     .    .       .    .      .      x',
      viewInviteLinks:   '.   .     .    .       .    .      .      x',
      managePermissions: '.   .     .    .       .    .      .      x',
      update:            '.   .     .    .       .    .      .      x',
      edit:              '.   .     .    .       .    .      .      .',
      triggerGitSync:    '.   .     .    .       .    .      .      .',
      merge:             '.   .     .    .       .    .      .      .',
    }, { editMode: 'locked' });
  });
});

describe('site (and its insights), by the role in its organization', () => {
  // prettier-ignore
  pins('site', {
    //    none guest read comment edit review create admin
    view: '.   .     x    x       x    x      x      x',
    edit: '.   .     .    .       .    .      x      x',
  });
});

describe('integration, by the role in its owner organization', () => {
  describe('listed (public or unlisted)', () => {
    // prettier-ignore
    pins('integration', {
      //       none guest read comment edit review create admin
      admin:   '.   .     .    .       .    .      .      x',
      view:    'x   x     x    x       x    x      x      x',
      install: 'x   x     x    x       x    x      x      x',
    }, { visibility: 'public' });
  });
  describe('private', () => {
    // prettier-ignore
    pins('integration', {
      //       none guest read comment edit review create admin
      admin:   '.   .     .    .       .    .      .      x',
      view:    '.   x     x    x       x    x      x      x',
      install: '.   .     .    .       .    .      .      x',
    }, { visibility: 'private' });
  });
});
