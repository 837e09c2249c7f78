export { createDb, isDatabaseUnreachable, pingDatabase, type Db } from './client';
export { enqueueJobIn, ensureQueue, queuedFlags, releaseQueue, RUN_JOB_TASK } from './queue';
export type { Read } from './read';
export {
  cancelJob,
  clientExtras,
  countJobs,
  createJob,
  failOrphanedJobs,
  finishJob,
  getJob,
  getJobToRun,
  handBackJob,
  queuedJobFlags,
  isStoredId,
  isCancelRequested,
  listJobs,
  listSucceededJobs,
  lastReproductionRuns,
  markJobRunning,
  newJobId,
  QueueFullError,
  storeJobSpent,
  rerunJob,
  type CancelOutcome,
  type Rerun,
  type RerunOutcome,
  type JobListEntry,
  type JobOutcome,
  type JobRow,
  type JobToRun,
  type StoredJob,
} from './jobs';
export {
  FINISHED_CELL,
  UNFINISHED_CELL,
  cancelUnfinishedCells,
  failCell,
  isFinishedRefusal,
  type CellWrite,
  markCellRunning,
  storeCellProgress,
  storeCellResult,
  type CellResultInput,
  type StoredCell,
  type StoredCellResult,
  type StoredChannel,
} from './cells';
export {
  countGates,
  createGate,
  findPendingGateJobIds,
  getGate,
  getGateToEvaluate,
  listGates,
  storeGateVerdict,
  type GateCell,
  type GateListEntry,
  type GateRow,
  type GateToEvaluate,
  type StoredGate,
} from './gates';
export { heartbeat, listRunners, markAllRunnersStopped, markRunnerStopped, registerRunner, resumeLapsedJobs, withHostLock, type RunnerInfo, type RunnerRow } from './runners';
export { knownClientVersions, recordClientVersion } from './client-versions';
export { loadTrendJobs, loadTrendRows, type TrendJob, type TrendRow } from './trend';
export { dumpTrendSummaries, loadTrendPoints, loadTrendScenarios, rebuildTrendSummaries } from './trend-summary';
export * from '../generated/prisma/client';
export { createToken, findLiveToken, hashToken, listTokens, revokeToken, TOKEN_NAME, TokenError, type TokenRow } from './tokens';
export { DELIVER_WEBHOOK_TASK, getDelivery, listDeliveries, recordDeliveryAttempt } from './webhooks';
export {
  createWatch,
  getWatch,
  listWatches,
  listWatchVerdicts,
  MAX_WATCH_BACKFILL_GATES,
  WATCH_RELEASES_PAGE,
  pollWatches,
  stopWatch,
  WatchBackfillTooLarge,
  WatchLimitError,
  type StopWatchOutcome,
  type StoredWatch,
  type WatchGate,
  type WatchLimits,
  type WatchPoll,
  type WatchRegistry,
  type WatchRelease,
  type WatchVerdict,
} from './watches';
export { artifactContent, getArtifact, getArtifacts, jobsRunningArtifact, storeArtifact, type ArtifactJob, type ArtifactMeta, type ArtifactUpload } from './artifacts';
export { gateCalibrationById, gateCalibrationFor, latestGateCalibration, storeGateCalibration } from './gate-calibrations';
