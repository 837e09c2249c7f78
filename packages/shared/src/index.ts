export * from './spec';
export * from './plan';
export * from './protocol';
export * from './stats';
export * from './table';
export * from './markdown';
export * from './names';
export * from './grpc-codes';
