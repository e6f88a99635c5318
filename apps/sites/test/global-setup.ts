import { prepareTemplates } from '@quire/service-kit/testing';

// The contract tests run the real orgs and content services beside this one: all templates are migrated.
export default () => prepareTemplates('orgs', 'content', 'sites');
