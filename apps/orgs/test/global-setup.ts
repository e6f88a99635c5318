import { prepareTemplates } from '@quire/service-kit/testing';

export default () => prepareTemplates('orgs');
