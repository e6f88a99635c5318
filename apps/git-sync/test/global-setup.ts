import { prepareTemplates } from '@quire/service-kit/testing';

// The integration tests run the real orgs and content services beside this one.
export default () => prepareTemplates('orgs', 'content', 'git-sync');
