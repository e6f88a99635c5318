import { prepareTemplates } from '@quire/service-kit/testing';

// The contract tests run the real orgs service beside this one: both templates are migrated.
export default () => prepareTemplates('orgs', 'integrations');
