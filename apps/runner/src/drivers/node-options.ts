import type { DriverCell } from '@scb/shared';

/** Client options for the cell's configuration; throws for an option this version lacks. */
export function nodeClientOptions(cell: DriverCell, grpc: any): Record<string, unknown> {
  const options: Record<string, unknown> = {
    projectId: cell.projectId,
    servicePath: cell.endpoint.host,
    port: cell.endpoint.port,
    sslCreds: grpc.credentials.createInsecure(),
  };
  // grpc-gcp is on by default in the Node client; these three options set to undefined turn it off.
  if (cell.configuration.grpcGcp === 'off') {
    options['grpc.callInvocationTransformer'] = undefined;
    options['grpc.channelFactoryOverride'] = undefined;
    options['grpc.gcpApiConfig'] = undefined;
  }
  return options;
}
