import { prepareTemplates } from '@quire/service-kit/testing';

// The contract tests run the real orgs service beside this one (memberships); insights itself
// keeps no PostgreSQL database.
export default () => prepareTemplates('orgs');
