// @scb/shared/trend: the trend of a metric across client versions (the /versions page).
export * from './metrics';
export * from './scenarios';
export * from './query';
export * from './model';
export * from './text';
export * from './summary';
