// Session RPCs: sessions live in memory, regular and multiplexed alike; every one created is counted.
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { spannerError } from '../faults';
import { timestampNow } from '../wire';
import type { RpcGroup } from './frame';

export const sessionRpcs: RpcGroup = ({ ctx, unary }) => {
  const sessions = new Map<string, { name: string; multiplexed: boolean; createTime: object }>();
  const newSession = (database: string, multiplexed: boolean) => {
    const s = { name: `${database}/sessions/${randomBytes(9).toString('base64url')}`, multiplexed, createTime: timestampNow() };
    sessions.set(s.name, s);
    ctx.accounting.sessionCreated();
    return s;
  };
  return {
    CreateSession: unary(
      'CreateSession',
      (req) => (req?.session?.multiplexed ? 'multiplexedSession' : 'session'),
      (req) => newSession(req.database, Boolean(req.session?.multiplexed)),
    ),
    BatchCreateSessions: unary('BatchCreateSessions', 'session', (req) => ({
      session: Array.from({ length: Math.max(1, Number(req.sessionCount ?? 1)) }, () => newSession(req.database, false)),
    })),
    GetSession: unary('GetSession', 'session', (req) => {
      const s = sessions.get(req.name);
      if (!s) throw spannerError(grpc.status.NOT_FOUND, `Session not found: ${req.name}`);
      return s;
    }),
    ListSessions: unary('ListSessions', 'session', (req) => ({ sessions: [...sessions.values()].filter((s) => s.name.startsWith(`${req.database}/`)) })),
    DeleteSession: unary('DeleteSession', 'session', (req) => {
      sessions.delete(req.name);
      return {};
    }),
  };
};
