import { prepareTemplates } from '@quire/service-kit/testing';

// The contract tests run the real orgs and content services beside this one: their templates are migrated too.
export default () => prepareTemplates('orgs', 'content', 'review');
