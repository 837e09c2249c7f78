export { CACHE_DIR, REPO_ROOT } from '@scb/shared/local';
