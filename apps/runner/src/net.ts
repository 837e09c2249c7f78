export { freePort } from '@scb/shared/local';
