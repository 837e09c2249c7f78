export * from './atom';
export * from './badge';
export * from './chips';
export * from './watch';
