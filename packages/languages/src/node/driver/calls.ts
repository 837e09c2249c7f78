// One hook on every call of a grpc-js: the client's own channels and grpc-gcp's pool alike go through
// Channel.prototype.createCall. Channel counts and the server-timing header both read calls here.

export interface Metadata {
  get(key: string): unknown[];
}
interface Listener {
  onReceiveMetadata(metadata: Metadata): void;
  onReceiveMessage(message: unknown): void;
  onReceiveStatus(status: unknown): void;
}
interface Call {
  start(metadata: unknown, listener: Listener): void;
}
export type GrpcJs = { Channel: { prototype: { createCall(...args: unknown[]): Call } } };

/**
 * What a hook does with one call: when it starts, and before the client's listener hears of it. At
 * the channel a message is still its serialized bytes.
 */
export interface CallHooks {
  onStart?(): void;
  onReceiveMetadata?(metadata: Metadata): void;
  onReceiveMessage?(message: Buffer): void;
  onReceiveStatus?(status: unknown): void;
}

/**
 * From here on, `hook` sees every call as it is created (in the creating caller's async context) with
 * its channel and method path, and may return what to do with it.
 */
export function onEveryCall(grpc: GrpcJs, hook: (channel: object, method: string) => CallHooks | undefined): void {
  const proto = grpc.Channel.prototype;
  const createCall = proto.createCall;
  proto.createCall = function (this: object, ...args: unknown[]) {
    const call = createCall.apply(this, args);
    const hooks = hook(this, String(args[0]));
    if (!hooks) return call;
    const start = call.start;
    call.start = function (this: Call, metadata, listener) {
      hooks.onStart?.();
      // A listener may keep state on itself: its methods keep running with the wrapper as `this`.
      const wrapped = Object.create(listener) as Listener;
      wrapped.onReceiveMetadata = function (received) {
        hooks.onReceiveMetadata?.(received);
        listener.onReceiveMetadata.call(this, received);
      };
      wrapped.onReceiveMessage = function (message) {
        if (Buffer.isBuffer(message)) hooks.onReceiveMessage?.(message);
        listener.onReceiveMessage.call(this, message);
      };
      wrapped.onReceiveStatus = function (status) {
        hooks.onReceiveStatus?.(status);
        listener.onReceiveStatus.call(this, status);
      };
      start.call(this, metadata, wrapped);
    };
    return call;
  };
}
