export { CACHE_DIR, REPO_ROOT } from '@scb/languages/local';
