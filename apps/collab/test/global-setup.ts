export { default } from '@quire/gateway/testing/global-setup';
