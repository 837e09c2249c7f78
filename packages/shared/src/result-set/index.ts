export * from './shape';
export * from './values';
export * from './ddl';
export * from './driver';
export * from './figures';
