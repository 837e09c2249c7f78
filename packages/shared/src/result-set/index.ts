export * from './shape';
export * from './values';
export * from './driver';
export * from './figures';
