// Every reproduction; adding one is adding an entry file and listing it here.
import { CHANNEL_BUGS } from './entries/channels';
import { SILENT_CONNECTIONS } from './entries/connections';
import { FIELD_STORIES } from './entries/field-stories';
import { MULTIPLEXED_SESSION_BUGS } from './entries/multiplexed-sessions';
import { PYTHON_BUGS } from './entries/python';
import { RESULT_SET_BUGS } from './entries/result-sets';
import { SESSION_POOL_BUGS } from './entries/session-pool';
import { TRAILER_WAITS } from './entries/trailers';
import type { Reproduction } from './reproduction';

export * from './reproduction';

export const REPRODUCTIONS: Reproduction[] = [
  ...FIELD_STORIES,
  ...MULTIPLEXED_SESSION_BUGS,
  ...TRAILER_WAITS,
  ...CHANNEL_BUGS,
  ...SILENT_CONNECTIONS,
  ...SESSION_POOL_BUGS,
  ...RESULT_SET_BUGS,
  ...PYTHON_BUGS,
];

export function reproduction(id: string): Reproduction | undefined {
  return REPRODUCTIONS.find((r) => r.id === id);
}
