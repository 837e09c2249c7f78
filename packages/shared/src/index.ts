// Everything of @scb/shared in one import, for Node code (the runner, the driver, scripts, tests).
// Browser code imports the subpaths instead: this barrel includes the scenario key, which needs Node.
export * from './spec/index';
export * from './spec/workload';
export * from './spec/plan';
export * from './spec/fake-config';
export * from './spec/presets';
export * from './spec/scenario';
export * from './spec/scenario-key';
export * from './targets/index';
export * from './protocol';
export * from './format';
export * from './canonical-json';
export * from './results/stats';
export * from './results/status';
export * from './results/warmup';
export * from './results/verdict';
export * from './results/table';
export * from './results/markdown';
export * from './results/grpc-codes';
export * from './results/channels';
export * from './results/export';
export * from './trend/index';
export * from './compare/index';
export * from './gate/gate';
export * from './gate/gate-stats';
export * from './gate/gate-markdown';
export * from './stored';
