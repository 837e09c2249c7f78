import { DEFAULT_SPANNER_ENDPOINT, OPERATION_TABLES, workloadMix, type SpannerTarget } from '@scb/shared';
import { targetEnv } from '../env';
import { missingTables } from './tables';
import { TargetError, type TargetPlugin } from '@scb/shared/target-plugin';

const NOT_ENABLED =
  'this runner does not run jobs against Cloud Spanner: its operator enables them by starting it with SCB_ALLOW_SPANNER=1 and Application Default Credentials in its environment (e.g. gcloud auth application-default login)';

/**
 * Real Cloud Spanner over TLS with the runner's Application Default Credentials, which reach the
 * drivers through their environment only. Nothing is created there: the scenario's tables must
 * exist. Each cell's driver enforces the target's cost cap.
 */
export const runner: TargetPlugin<SpannerTarget> = {
  kind: 'spanner',
  available: () => targetEnv.allowSpanner(),
  credentials: true,
  refuseJob: () => (targetEnv.allowSpanner() ? null : NOT_ENABLED),
  async start(target, spec) {
    const endpoint = target.endpoint ?? DEFAULT_SPANNER_ENDPOINT;
    const at = endpoint.lastIndexOf(':');
    const host = endpoint.slice(0, at);
    const port = Number(endpoint.slice(at + 1));
    const database = { projectId: target.projectId, instanceId: target.instanceId, databaseId: target.databaseId };
    const path = `projects/${database.projectId}/instances/${database.instanceId}/databases/${database.databaseId}`;
    const missing = await missingTables({ projectId: database.projectId, servicePath: host, port }, path, [...new Set(workloadMix(spec.workload).flatMap((m) => OPERATION_TABLES[m.operation]))]).catch(
      (e: Error) => {
        throw new TargetError(`the tables of ${path} could not be listed: ${e.message}`);
      },
    );
    if (missing.length > 0) throw new TargetError(`${path} lacks the table(s) ${missing.join(', ')} that ${spec.workload.operation} needs: create them first (we create nothing on Cloud Spanner)`);
    const tlsRootsFile = targetEnv.testTlsRoots();
    return {
      endpoint: { host, port, security: 'tls', ...(tlsRootsFile ? { tlsRootsFile } : {}) },
      database,
      async stop() {},
    };
  },
};
