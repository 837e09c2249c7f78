export { freePort } from '@scb/languages/local';
