// @scb/shared/job: the job spec, the order of client versions, configurations in words.
export * from './spec';
export * from './semver';
export * from './configuration';
export * from './languages';
export * from './estimate';
export { cellCount } from './plan';
export * from './artifacts';
